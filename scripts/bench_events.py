"""Media-server events beside pages, A/B: pages paced at 40 a second (films, a show, TV Shows, lists)
for 15 s alone, then with 1,000 webhook events a minute from 50 people's servers (the events of
`scripts/bench --mix`), alternated, on the release build and the stub (127.0.0.1 only). Prints each
phase's pages n/p50/p99 and the events' n/p50/p99 (ms, from when each was due), then what the
events came to. Usage: python3 scripts/bench_events.py (after `swift build -c release`)."""
import json, os, subprocess, sys, time, threading, urllib.request, sqlite3, random, http.client, socket, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_mix as bm
ROOT=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TMP=tempfile.mkdtemp(prefix="popcorn-bench-events-")
with socket.socket() as s_:
    s_.bind(("127.0.0.1", 0)); PORT=s_.getsockname()[1]
stub = subprocess.Popen([sys.executable, f"{ROOT}/scripts/stub_upstream.py", "--port", "0"], stdout=subprocess.PIPE, text=True)
stub_url = f"http://127.0.0.1:{int(stub.stdout.readline().strip().split('=')[1])}"
db=os.path.join(TMP,"db.sqlite")
for f in [db, db+"-wal", db+"-shm"]:
    if os.path.exists(f): os.remove(f)
env = {**os.environ, "HOST":"127.0.0.1","PORT":str(PORT),"SQLITE_PATH":db,"POSTER_CACHE_DIR":os.path.join(TMP,"posters"),"ITUNES_BASE_URL":stub_url,"TVMAZE_BASE_URL":stub_url,"OMDB_BASE_URL":stub_url,"IMAGE_BASE_URL":stub_url+"/img","LOG_LEVEL":"warning","OMDB_API_KEY":"test-key","TRUSTED_PROXIES":"127.0.0.1"}
app = subprocess.Popen([f"{ROOT}/.build/release/popcornswirl"], env=env)
base=f"http://127.0.0.1:{PORT}"
for _ in range(100):
    try: urllib.request.urlopen(base+"/healthz"); break
    except Exception: time.sleep(0.2)
# people: 50 visitors via API
people=[]
for n in range(50):
    r=urllib.request.urlopen(urllib.request.Request(base+"/api/v1/library/shows/590", method="PUT", data=b"{\"favorite\": true}", headers={"Content-Type":"application/json","Accept":"application/json","X-Forwarded-For":f"10.0.{n}.1"}))
    people.append(r.headers.get("Set-Cookie").split(";")[0])
for sid in bm.SHOW_IDS: urllib.request.urlopen(base+f"/api/v1/shows/{sid}/episodes").read()
servers=bm.seed_integrations(db)
print("servers", len(servers), flush=True)
rng=random.Random(1)
def pages(duration, rate, out):
    paths=["/movies?year=2024","/shows/590","/movies?year=2019","/shows","/lists"]
    start=time.time(); i=0
    lat=[]
    def one(path, due):
        c=http.client.HTTPConnection("127.0.0.1",PORT,timeout=30)
        c.request("GET",path,headers={"Cookie":people[i%50]}); c.getresponse().read(); lat.append(time.time()-due)
    threads=[]
    while time.time()-start<duration:
        due=start+i/rate
        if due>time.time(): time.sleep(due-time.time())
        t=threading.Thread(target=one,args=(paths[i%len(paths)],due)); t.start(); threads.append(t); i+=1
    for t in threads: t.join()
    lat.sort(); out.append((len(lat), lat[len(lat)//2]*1000, lat[int(len(lat)*0.99)]*1000))
def events(duration, rate, kind_filter, out):
    start=time.time(); i=0; lat=[]
    def one(path, body, ctype, due):
        c=http.client.HTTPConnection("127.0.0.1",PORT,timeout=30)
        c.request("POST",path,body=body.encode(),headers={"Content-Type":ctype}); c.getresponse().read(); lat.append(time.time()-due)
    threads=[]
    while time.time()-start<duration:
        due=start+i/rate
        if due>time.time(): time.sleep(due-time.time())
        kind,token=servers[i%len(servers)]
        path,body,ctype=bm.event_request(kind,token,i+int(start),rng)
        if kind_filter=="progress":
            body=body.replace("media.scrobble","media.play").replace('"PlayedToCompletion": true','"PlayedToCompletion": false').replace("playback.stop","playback.pause").replace('"progress": 100','"progress": 50')
        t=threading.Thread(target=one,args=(path,body,ctype,due)); t.start(); threads.append(t); i+=1
    for t in threads: t.join()
    lat.sort(); out.append((len(lat), lat[len(lat)//2]*1000, lat[int(len(lat)*0.99)]*1000))
try:
    for label, mode in [("pages alone",None),("pages + all events","all"),("pages alone",None),("pages + progress-only events","progress"),("pages + all events","all")]:
        p=[]; e=[]
        ts=[threading.Thread(target=pages,args=(15,40,p))]
        if mode: ts.append(threading.Thread(target=events,args=(15,1000/60,mode,e)))
        for t in ts: t.start()
        for t in ts: t.join()
        print(label, "pages n/p50/p99", ["%.1f"%x for x in p[0]], "events", ["%.1f"%x for x in e[0]] if e else "", flush=True)
    con=sqlite3.connect(db); print(con.execute("select state,result,count(*) from integration_events group by 1,2").fetchall())
finally:
    app.terminate(); stub.terminate()
