#!/usr/bin/env python3
"""Writes the offline episode catalogue, Sources/App/Resources/catalog/episodes.json (stdlib only).

    python3 scripts/make_offline_episodes.py

Input: the DATA section below (one entry per show of shows.json) and shows.json itself (read, never
written; it supplies each show's network, web channel, schedule time and runtime). Output: a JSON
object {"<show id>": {"seasons": [...], "episodes": [...]}} in TVMaze's own season and episode
formats, episodes in airing order with specials included. Deterministic: the same file every run.

Data section format, per show id:
    rt        episode runtime when the show's runtime in shows.json is null (else the show's runtime)
    at        airtime "HH:MM" when the schedule's time is not the one episodes aired at ("" = none)
    seasons   list of Season(air, names or n, name="")
    specials  list of Special(season, airdate, name, type, runtime)
Season.air is one or more blocks separated by ";", each giving airdates for consecutive episodes:
    "2009-03-08 x13"            13 episodes a week apart from that date
    "2015-01-13 x13 p2"         13 episodes, two a night, a week apart
    "2018-10-01 x52 wd"         52 episodes on consecutive weekdays
    "2016-07-15 =8"             8 episodes released the same day (streaming drop)
    "2008-01-20..2008-03-09 n7" 7 episodes from the first date to the last: a week apart from the
                                 premiere for the first half and a week apart back from the finale for
                                 the second (mid-season break), or a week apart clipped to the finale
                                 when the span is shorter than that
Season.names is a "|"-separated list of episode names; when shorter than the season (or absent, with n
given), the rest are TVMaze-style placeholders "Episode N". NAMES (after DATA) adds whole seasons of
names to long shows without crowding their structure. channel4_seasons/channel4_until (Black Mirror)
say which seasons and specials aired on the show's network rather than on its web channel.
Ids are synthetic (episodes 950000001+, seasons 960000001+, numbered in shows.json order); urls are null.
Check the result with `python3 scripts/check_shows.py`.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import sys
from zoneinfo import ZoneInfo

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOG = os.path.join(HERE, "..", "Sources", "App", "Resources", "catalog")
SHOWS_PATH = os.path.join(CATALOG, "shows.json")
OUT_PATH = os.path.join(CATALOG, "episodes.json")
API = "https://api.tvmaze.com"
FIRST_EPISODE_ID = 950000001
FIRST_SEASON_ID = 960000001


class Season:
    def __init__(self, air, names=None, n=None, name=""):
        self.air, self.name = air, name
        given = [x.strip() for x in names.split("|")] if names else []
        self.n = n if n is not None else len(given)
        assert len(given) <= self.n, (air, len(given), self.n)
        self.names = given + [f"Episode {i}" for i in range(len(given) + 1, self.n + 1)]
        self.named = len(given)


class Special:
    def __init__(self, season, airdate, name, type="significant_special", runtime=None, airtime=None):
        self.season, self.airdate, self.name, self.type = season, airdate, name, type
        self.runtime, self.airtime = runtime, airtime


S, X = Season, Special

# ----------------------------------------------------------------------------------------- DATA
# Season structure (seasons, episodes per season, premiere and finale dates) is factual to the best of
# the authors' knowledge; names are given only where known with confidence. See the catalogue README.

DATA = {
    169: dict(seasons=[  # Breaking Bad
        S("2008-01-20..2008-03-09 n7", "Pilot|Cat's in the Bag...|...And the Bag's in the River|Cancer Man|"
          "Gray Matter|Crazy Handful of Nothin'|A No-Rough-Stuff-Type Deal"),
        S("2009-03-08 x13", "Seven Thirty-Seven|Grilled|Bit by a Dead Bee|Down|Breakage|Peekaboo|Negro y Azul|"
          "Better Call Saul|4 Days Out|Over|Mandala|Phoenix|ABQ"),
        S("2010-03-21 x13", "No Más|Caballo sin Nombre|I.F.T.|Green Light|Más|Sunset|One Minute|I See You|"
          "Kafkaesque|Fly|Abiquiú|Half Measures|Full Measure"),
        S("2011-07-17 x13", "Box Cutter|Thirty-Eight Snub|Open House|Bullet Points|Shotgun|Cornered|Problem Dog|"
          "Hermanos|Bug|Salud|Crawl Space|End Times|Face Off"),
        S("2012-07-15 x8; 2013-08-11 x8", "Live Free or Die|Madrigal|Hazard Pay|Fifty-One|Dead Freight|Buyout|"
          "Say My Name|Gliding Over All|Blood Money|Buried|Confessions|Rabid Dog|To'hajiilee|Ozymandias|"
          "Granite State|Felina"),
    ]),
    179: dict(seasons=[  # The Wire
        S("2002-06-02..2002-09-08 n13", "The Target|The Detail|The Buys|Old Cases|The Pager|The Wire|One Arrest|"
          "Lessons|Game Day|The Cost|The Hunt|Cleaning Up|Sentencing"),
        S("2003-06-01 x12", "Ebb Tide|Collateral Damage|Hot Shots|Hard Cases|Undertow|All Prologue|Backwash|"
          "Duck and Cover|Stray Rounds|Storm Warnings|Bad Dreams|Port in a Storm"),
        S("2004-09-19..2004-12-19 n12", "Time After Time|All Due Respect|Dead Soldiers|Hamsterdam|Straight and True|"
          "Homecoming|Back Burners|Moral Midgetry|Slapstick|Reformation|Middle Ground|Mission Accomplished"),
        S("2006-09-10 x13", "Boys of Summer|Soft Eyes|Home Rooms|Refugees|Alliances|Margin of Error|Unto Others|"
          "Corner Boys|Know Your Place|Misgivings|A New Day|That's Got His Own|Final Grades"),
        S("2008-01-06 x10", "More with Less|Unconfirmed Reports|Not for Attribution|Transitions|React Quotes|"
          "The Dickensian Aspect|Took|Clarifications|Late Editions|-30-"),
    ]),
    82: dict(seasons=[  # Game of Thrones
        S("2011-04-17 x10", "Winter Is Coming|The Kingsroad|Lord Snow|Cripples, Bastards, and Broken Things|"
          "The Wolf and the Lion|A Golden Crown|You Win or You Die|The Pointy End|Baelor|Fire and Blood"),
        S("2012-04-01 x10", "The North Remembers|The Night Lands|What Is Dead May Never Die|Garden of Bones|"
          "The Ghost of Harrenhal|The Old Gods and the New|A Man Without Honor|The Prince of Winterfell|"
          "Blackwater|Valar Morghulis"),
        S("2013-03-31 x8; 2013-06-02 x2", "Valar Dohaeris|Dark Wings, Dark Words|Walk of Punishment|"
          "And Now His Watch Is Ended|Kissed by Fire|The Climb|The Bear and the Maiden Fair|Second Sons|"
          "The Rains of Castamere|Mhysa"),
        S("2014-04-06 x7; 2014-06-01 x3", "Two Swords|The Lion and the Rose|Breaker of Chains|Oathkeeper|"
          "First of His Name|The Laws of Gods and Men|Mockingbird|The Mountain and the Viper|"
          "The Watchers on the Wall|The Children"),
        S("2015-04-12 x10", "The Wars to Come|The House of Black and White|High Sparrow|Sons of the Harpy|"
          "Kill the Boy|Unbowed, Unbent, Unbroken|The Gift|Hardhome|The Dance of Dragons|Mother's Mercy"),
        S("2016-04-24 x10", "The Red Woman|Home|Oathbreaker|Book of the Stranger|The Door|Blood of My Blood|"
          "The Broken Man|No One|Battle of the Bastards|The Winds of Winter"),
        S("2017-07-16 x7", "Dragonstone|Stormborn|The Queen's Justice|The Spoils of War|Eastwatch|Beyond the Wall|"
          "The Dragon and the Wolf"),
        S("2019-04-14 x6", "Winterfell|A Knight of the Seven Kingdoms|The Long Night|The Last of the Starks|"
          "The Bells|The Iron Throne"),
    ]),
    431: dict(seasons=[  # Friends
        S("1994-09-22..1995-05-18 n24", n=24),
        S("1995-09-21..1996-05-16 n24", n=24),
        S("1996-09-19..1997-05-15 n25", n=25),
        S("1997-09-25..1998-05-07 n24", n=24),
        S("1998-09-24..1999-05-20 n24", n=24),
        S("1999-09-23..2000-05-18 n25", n=25),
        S("2000-10-12..2001-05-17 n24", n=24),
        S("2001-09-27..2002-05-16 n24", n=24),
        S("2002-09-26..2003-05-15 n24", n=24),
        S("2003-09-25..2004-05-06 n18", n=18),
    ]),
    526: dict(seasons=[  # The Office
        S("2005-03-24 x1; 2005-03-29..2005-04-26 n5", "Pilot|Diversity Day|Health Care|The Alliance|Basketball|"
          "Hot Girl"),
        S("2005-09-20..2006-05-11 n22", n=22),
        S("2006-09-21..2007-05-17 n25", n=25),
        S("2007-09-27..2008-05-15 n19", n=19),
        S("2008-09-25..2009-05-14 n28", n=28),
        S("2009-09-17..2010-05-20 n26", n=26),
        S("2010-09-23..2011-05-19 n26", n=26),
        S("2011-09-22..2012-05-10 n24", n=24),
        S("2012-09-20..2013-05-16 n25", n=25),
    ]),
    2993: dict(seasons=[  # Stranger Things
        S("2016-07-15 =8", "Chapter One: The Vanishing of Will Byers|Chapter Two: The Weirdo on Maple Street|"
          "Chapter Three: Holly, Jolly|Chapter Four: The Body|Chapter Five: The Flea and the Acrobat|"
          "Chapter Six: The Monster|Chapter Seven: The Bathtub|Chapter Eight: The Upside Down"),
        S("2017-10-27 =9", "Chapter One: MADMAX|Chapter Two: Trick or Treat, Freak|Chapter Three: The Pollywog|"
          "Chapter Four: Will the Wise|Chapter Five: Dig Dug|Chapter Six: The Spy|Chapter Seven: The Lost Sister|"
          "Chapter Eight: The Mind Flayer|Chapter Nine: The Gate"),
        S("2019-07-04 =8", "Chapter One: Suzie, Do You Copy?|Chapter Two: The Mall Rats|"
          "Chapter Three: The Case of the Missing Lifeguard|Chapter Four: The Sauna Test|Chapter Five: The Flayed|"
          "Chapter Six: E Pluribus Unum|Chapter Seven: The Bite|Chapter Eight: The Battle of Starcourt"),
        S("2022-05-27 =7; 2022-07-01 =2", "Chapter One: The Hellfire Club|Chapter Two: Vecna's Curse|"
          "Chapter Three: The Monster and the Superhero|Chapter Four: Dear Billy|Chapter Five: The Nina Project|"
          "Chapter Six: The Dive|Chapter Seven: The Massacre at Hawkins Lab|Chapter Eight: Papa|"
          "Chapter Nine: The Piggyback"),
        S("2025-11-26 =4; 2025-12-25 =3; 2025-12-31 =1", "Chapter One: The Crawl|"
          "Chapter Two: The Vanishing of Holly Wheeler|Chapter Three: The Turnbow Trap|Chapter Four: Sorcerer|"
          "Chapter Five: Shock Jock|Chapter Six: Escape from Camazotz|Chapter Seven: The Bridge|"
          "Chapter Eight: The Rightside Up"),
    ]),
    3594: dict(seasons=[  # The Crown
        S("2016-11-04 =10", "Wolferton Splash|Hyde Park Corner|Windsor|Act of God|Smoke and Mirrors|Gelignite|"
          "Scientia Potentia Est|Pride & Joy|Assassins|Gloriana"),
        S("2017-12-08 =10", "Misadventure|A Company of Men|Lisbon|Beryl|Marionettes|Vergangenheit|Matrimonium|"
          "Dear Mrs Kennedy|Paterfamilias|Mystery Man"),
        S("2019-11-17 =10", "Olding|Margaretology|Aberfan|Bubbikins|Coup|Tywysog Cymru|Moondust|Dangling Man|"
          "Imbroglio|Cri de Coeur"),
        S("2020-11-15 =10", "Gold Stick|The Balmoral Test|Fairytale|Favourites|Fagan|Terra Nullius|"
          "The Hereditary Principle|48:1|Avalanche|War"),
        S("2022-11-09 =10", "Queen Victoria Syndrome|The System|Mou Mou|Annus Horribilis|The Way Ahead|"
          "Ipatiev House|No Woman's Land|Gunpowder|Couple 31|Decommissioned"),
        S("2023-11-16 =4; 2023-12-14 =6", "Persona Non Grata|Two Photographs|Dis-Moi Oui|Aftermath", n=10),
    ]),
    335: dict(seasons=[  # Sherlock
        S("2010-07-25 x3", "A Study in Pink|The Blind Banker|The Great Game"),
        S("2012-01-01 x3", "A Scandal in Belgravia|The Hounds of Baskerville|The Reichenbach Fall"),
        S("2014-01-01 x1; 2014-01-05 x2", "The Empty Hearse|The Sign of Three|His Last Vow"),
        S("2017-01-01 x3", "The Six Thatchers|The Lying Detective|The Final Problem"),
    ], specials=[
        X(3, "2013-12-24", "Many Happy Returns", "insignificant_special", runtime=7, airtime=""),
        X(3, "2016-01-01", "The Abominable Bride"),
    ]),
    16149: dict(seasons=[  # Fleabag (series 1 released on BBC Three online in one go; series 2 weekly)
        S("2016-07-21 =6", n=6),
        S("2019-03-04 x6", n=6),
    ]),
    44933: dict(rt=53, seasons=[  # Severance
        S("2022-02-18 =2; 2022-02-25 x7", "Good News About Hell|Half Loop|In Perpetuity|The You You Are|"
          "The Grim Barbarity of Optics and Design|Hide and Seek|Defiant Jazz|What's for Dinner?|The We We Are"),
        S("2025-01-17 x10", "Hello, Ms. Cobel|Goodbye, Mrs. Selvig|Who Is Alive?|Woe's Hollow|Trojan's Horse|"
          "Attila|Chikhai Bardo|Sweet Vitriol|The After Hours|Cold Harbor"),
    ]),
    44458: dict(rt=45, seasons=[  # Ted Lasso
        S("2020-08-14 =3; 2020-08-21 x7", "Pilot|Biscuits|Trent Crimm: The Independent|For the Children|Tan Lines|"
          "Two Aces|Make Rebecca Great Again|The Diamond Dogs|All Apologies|The Hope That Kills You"),
        S("2021-07-23 x12", "Goodbye Earl|Lavender|Do the Right-est Thing|Carol of the Bells|Rainbow|The Signal|"
          "Headspace|Man City|Beard After Hours|No Weddings and a Funeral|Midnight Train to Royston|"
          "Inverting the Pyramid of Success"),
        S("2023-03-15 x12", "Smells Like Mean Spirit|(I Don't Want to Go to) Chelsea|4-5-1|Big Week|Signs|"
          "Sunflowers|The Strings That Bind Us|We'll Never Have Paris|La Locker Room Aux Folles|"
          "International Break|Mom City|So Long, Farewell"),
    ]),
    38963: dict(rt=40, seasons=[  # The Mandalorian
        S("2019-11-12 x1; 2019-11-15 x5; 2019-12-18 x1; 2019-12-27 x1", "Chapter 1: The Mandalorian|"
          "Chapter 2: The Child|Chapter 3: The Sin|Chapter 4: Sanctuary|Chapter 5: The Gunslinger|"
          "Chapter 6: The Prisoner|Chapter 7: The Reckoning|Chapter 8: Redemption"),
        S("2020-10-30 x8", "Chapter 9: The Marshal|Chapter 10: The Passenger|Chapter 11: The Heiress|"
          "Chapter 12: The Siege|Chapter 13: The Jedi|Chapter 14: The Tragedy|Chapter 15: The Believer|"
          "Chapter 16: The Rescue"),
        S("2023-03-01 x8", "Chapter 17: The Apostate|Chapter 18: The Mines of Mandalore|Chapter 19: The Convert|"
          "Chapter 20: The Foundling|Chapter 21: The Pirate|Chapter 22: Guns for Hire|Chapter 23: The Spies|"
          "Chapter 24: The Return"),
    ]),
    618: dict(at="22:00", seasons=[  # Better Call Saul
        S("2015-02-08 x1; 2015-02-09 x9", "Uno|Mijo|Nacho|Hero|Alpine Shepherd Boy|Five-O|Bingo|RICO|Pimento|Marco"),
        S("2016-02-15 x10", "Switch|Cobbler|Amarillo|Gloves Off|Rebecca|Bali Ha'i|Inflatable|Fifi|Nailed|Klick"),
        S("2017-04-10 x10", "Mabel|Witness|Sunk Costs|Sabrosito|Chicanery|Off Brand|Expenses|Slip|Fall|Lantern"),
        S("2018-08-06 x10", "Smoke|Breathe|Something Beautiful|Talk|Quite a Ride|Piñata|Something Stupid|"
          "Coushatta|Wiedersehen|Winner"),
        S("2020-02-23 x1; 2020-02-24 x9", "Magic Man|50% Off|The Guy for This|Namaste|Dedicado a Max|"
          "Wexler v. Goodman|JMM|Bagman|Bad Choice Road|Something Unforgivable"),
        S("2022-04-18 =2; 2022-04-25 x5; 2022-07-11 x6", "Wine and Roses|Carrot and Stick|Rock and Hard Place|"
          "Hit and Run|Black and Blue|Axe and Grind|Plan and Execution|Point and Shoot|Smoke and Mirrors|"
          "Fun and Games|Breaking Bad|Waterworks|Saul Gone"),
    ]),
    527: dict(seasons=[  # The Sopranos
        S("1999-01-10 x13", "The Sopranos|46 Long|Denial, Anger, Acceptance|Meadowlands|College|Pax Soprana|"
          "Down Neck|The Legend of Tennessee Moltisanti|Boca|A Hit Is a Hit|Nobody Knows Anything|Isabella|"
          "I Dream of Jeannie Cusamano"),
        S("2000-01-16..2000-04-09 n13", "Guy Walks into a Psychiatrist's Office...|Do Not Resuscitate|"
          "Toodle-Fucking-Oo|Commendatori|Big Girls Don't Cry|The Happy Wanderer|D-Girl|Full Leather Jacket|"
          "From Where to Eternity|Bust Out|House Arrest|The Knight in White Satin Armor|Funhouse"),
        S("2001-03-04 =2; 2001-03-11 x11", "Mr. Ruggerio's Neighborhood|Proshai, Livushka|Fortunate Son|"
          "Employee of the Month|Another Toothpick|University|Second Opinion|He Is Risen|"
          "The Telltale Moozadell|...To Save Us All from Satan's Power|Pine Barrens|Amour Fou|Army of One"),
        S("2002-09-15 x13", "For All Debts Public and Private|No Show|Christopher|The Weight|Pie-O-My|"
          "Everybody Hurts|Watching Too Much Television|Mergers and Acquisitions|Whoever Did This|"
          "The Strong, Silent Type|Calling All Cars|Eloise|Whitecaps"),
        S("2004-03-07..2004-06-06 n13", "Two Tonys|Rat Pack|Where's Johnny?|All Happy Families...|"
          "Irregular Around the Margins|Sentimental Education|In Camelot|Marco Polo|Unidentified Black Males|"
          "Cold Cuts|The Test Dream|Long Term Parking|All Due Respect"),
        S("2006-03-12 x12; 2007-04-08..2007-06-10 n9", "Members Only|Join the Club|Mayham|The Fleshy Part of the Thigh|"
          "Mr. & Mrs. John Sacrimoni Request...|Live Free or Die|Luxury Lounge|Johnny Cakes|The Ride|"
          "Moe n' Joe|Cold Stones|Kaisha|Soprano Home Movies|Stage 5|Remember When|Chasing It|Walk Like a Man|"
          "Kennedy and Heidi|The Second Coming|The Blue Comet|Made in America"),
    ]),
    530: dict(seasons=[  # Seinfeld
        S("1989-07-05 x1; 1990-05-31 x4", n=5),
        S("1991-01-23 x4; 1991-04-04 x5; 1991-05-16 x2; 1991-06-26 x1", n=12),
        S("1991-09-18..1992-05-06 n23", n=23),
        S("1992-08-12..1993-05-20 n24", n=24),
        S("1993-09-16..1994-05-19 n22", n=22),
        S("1994-09-22..1995-05-18 n24", n=24),
        S("1995-09-21..1996-05-16 n24", n=24),
        S("1996-09-19..1997-05-15 n22", n=22),
        S("1997-09-25..1998-05-14 n24", n=24),
    ]),
    210: dict(seasons=[  # Doctor Who (2005-2022; seasons as TVMaze numbers the series)
        S("2005-03-26 x13", "Rose|The End of the World|The Unquiet Dead|Aliens of London|World War Three|Dalek|"
          "The Long Game|Father's Day|The Empty Child|The Doctor Dances|Boom Town|Bad Wolf|The Parting of the Ways"),
        S("2006-04-15 x13", "New Earth|Tooth and Claw|School Reunion|The Girl in the Fireplace|Rise of the Cybermen|"
          "The Age of Steel|The Idiot's Lantern|The Impossible Planet|The Satan Pit|Love & Monsters|Fear Her|"
          "Army of Ghosts|Doomsday"),
        S("2007-03-31..2007-06-30 n13", "Smith and Jones|The Shakespeare Code|Gridlock|Daleks in Manhattan|"
          "Evolution of the Daleks|The Lazarus Experiment|42|Human Nature|The Family of Blood|Blink|Utopia|"
          "The Sound of Drums|Last of the Time Lords"),
        S("2008-04-05..2008-07-05 n13", "Partners in Crime|The Fires of Pompeii|Planet of the Ood|"
          "The Sontaran Stratagem|The Poison Sky|The Doctor's Daughter|The Unicorn and the Wasp|"
          "Silence in the Library|Forest of the Dead|Midnight|Turn Left|The Stolen Earth|Journey's End"),
        S("2010-04-03 x13", "The Eleventh Hour|The Beast Below|Victory of the Daleks|The Time of Angels|"
          "Flesh and Stone|The Vampires of Venice|Amy's Choice|The Hungry Earth|Cold Blood|"
          "Vincent and the Doctor|The Lodger|The Pandorica Opens|The Big Bang"),
        S("2011-04-23 x7; 2011-08-27 x6", "The Impossible Astronaut|Day of the Moon|The Curse of the Black Spot|"
          "The Doctor's Wife|The Rebel Flesh|The Almost People|A Good Man Goes to War|Let's Kill Hitler|"
          "Night Terrors|The Girl Who Waited|The God Complex|Closing Time|The Wedding of River Song"),
        S("2012-09-01 x5; 2013-03-30 x8", "Asylum of the Daleks|Dinosaurs on a Spaceship|A Town Called Mercy|"
          "The Power of Three|The Angels Take Manhattan|The Bells of Saint John|The Rings of Akhaten|Cold War|"
          "Hide|Journey to the Centre of the TARDIS|The Crimson Horror|Nightmare in Silver|The Name of the Doctor"),
        S("2014-08-23 x12", "Deep Breath|Into the Dalek|Robot of Sherwood|Listen|Time Heist|The Caretaker|"
          "Kill the Moon|Mummy on the Orient Express|Flatline|In the Forest of the Night|Dark Water|"
          "Death in Heaven"),
        S("2015-09-19 x12", "The Magician's Apprentice|The Witch's Familiar|Under the Lake|Before the Flood|"
          "The Girl Who Died|The Woman Who Lived|The Zygon Invasion|The Zygon Inversion|Sleep No More|"
          "Face the Raven|Heaven Sent|Hell Bent"),
        S("2017-04-15 x12", "The Pilot|Smile|Thin Ice|Knock Knock|Oxygen|Extremis|"
          "The Pyramid at the End of the World|The Lie of the Land|Empress of Mars|The Eaters of Light|"
          "World Enough and Time|The Doctor Falls"),
        S("2018-10-07 x10", "The Woman Who Fell to Earth|The Ghost Monument|Rosa|Arachnids in the UK|"
          "The Tsuranga Conundrum|Demons of the Punjab|Kerblam!|The Witchfinders|It Takes You Away|"
          "The Battle of Ranskoor Av Kolos"),
        S("2020-01-01 x1; 2020-01-05 x9", "Spyfall, Part One|Spyfall, Part Two|Orphan 55|"
          "Nikola Tesla's Night of Terror|Fugitive of the Judoon|Praxeus|Can You Hear Me?|"
          "The Haunting of Villa Diodati|Ascension of the Cybermen|The Timeless Children"),
        S("2021-10-31 x6", "Flux: Chapter One: The Halloween Apocalypse|Flux: Chapter Two: War of the Sontarans|"
          "Flux: Chapter Three: Once, Upon Time|Flux: Chapter Four: Village of the Angels|"
          "Flux: Chapter Five: Survivors of the Flux|Flux: Chapter Six: The Vanquishers", name="Flux"),
    ], specials=[
        X(1, "2005-12-25", "The Christmas Invasion", runtime=60),
        X(2, "2006-12-25", "The Runaway Bride", runtime=60),
        X(3, "2007-12-25", "Voyage of the Damned", runtime=72),
        X(4, "2008-12-25", "The Next Doctor", runtime=60),
        X(4, "2009-04-11", "Planet of the Dead", runtime=60),
        X(4, "2009-11-15", "The Waters of Mars", runtime=60),
        X(4, "2009-12-25", "The End of Time, Part One", runtime=60),
        X(4, "2010-01-01", "The End of Time, Part Two", runtime=75),
        X(5, "2010-12-25", "A Christmas Carol", runtime=60),
        X(6, "2011-12-25", "The Doctor, the Widow and the Wardrobe", runtime=60),
        X(7, "2012-12-25", "The Snowmen", runtime=60),
        X(7, "2013-11-23", "The Day of the Doctor", runtime=77),
        X(7, "2013-12-25", "The Time of the Doctor", runtime=60),
        X(8, "2014-12-25", "Last Christmas", runtime=60),
        X(9, "2015-12-25", "The Husbands of River Song", runtime=60),
        X(9, "2016-12-25", "The Return of Doctor Mysterio", runtime=60),
        X(10, "2017-12-25", "Twice Upon a Time", runtime=60),
        X(11, "2019-01-01", "Resolution", runtime=60),
        X(12, "2021-01-01", "Revolution of the Daleks", runtime=70),
        X(13, "2022-01-01", "Eve of the Daleks", runtime=60),
        X(13, "2022-04-17", "Legend of the Sea Devils", runtime=60),
        X(13, "2022-10-23", "The Power of the Doctor", runtime=90),
    ]),
    305: dict(rt=60, seasons=[  # Black Mirror (series 1-2 and White Christmas on Channel 4, then Netflix)
        S("2011-12-04 x3", "The National Anthem|Fifteen Million Merits|The Entire History of You"),
        S("2013-02-11 x3", "Be Right Back|White Bear|The Waldo Moment"),
        S("2016-10-21 =6", "Nosedive|Playtest|Shut Up and Dance|San Junipero|Men Against Fire|Hated in the Nation"),
        S("2017-12-29 =6", "USS Callister|Arkangel|Crocodile|Hang the DJ|Metalhead|Black Museum"),
        S("2019-06-05 =3", "Striking Vipers|Smithereens|Rachel, Jack and Ashley Too"),
        S("2023-06-15 =5", "Joan Is Awful|Loch Henry|Beyond the Sea|Mazey Day|Demon 79"),
        S("2025-04-10 =6", "Common People|Bête Noire|Hotel Reverie|Plaything|Eulogy|USS Callister: Into Infinity"),
    ], specials=[
        X(2, "2014-12-16", "White Christmas", runtime=74),
        X(4, "2018-12-28", "Black Mirror: Bandersnatch", runtime=90),
    ], channel4_seasons=(1, 2), channel4_until="2015-01-01"),
    30770: dict(seasons=[  # Chernobyl
        S("2019-05-06 x5", "1:23:45|Please Remain Calm|Open Wide, O Earth|The Happiness of All Mankind|"
          "Vichnaya Pamyat"),
    ]),
    17861: dict(rt=56, seasons=[  # Dark
        S("2017-12-01 =10", "Secrets|Lies|Past and Present|Double Lives|Truths|Sic Mundus Creatus Est|Crossroads|"
          "As You Sow, so You Shall Reap|Everything Is Now|Alpha and Omega"),
        S("2019-06-21 =8", "Beginnings and Endings|Dark Matter|Ghosts|The Travelers|Lost and Found|"
          "An Endless Cycle|The White Devil|Endings and Beginnings"),
        S("2020-06-27 =8", "Deja-vu|The Survivors|Adam and Eva|The Origin|Life and Death|Light and Shadow|"
          "Between the Time|The Paradise"),
    ]),
    43687: dict(rt=57, seasons=[  # Squid Game
        S("2021-09-17 =9", "Red Light, Green Light|Hell|The Man with the Umbrella|Stick to the Team|A Fair World|"
          "Gganbu|VIPS|Front Man|One Lucky Day"),
        S("2024-12-26 =7", "Bread and Lottery|Halloween Party|001|Six Legs|One More Game|O X|Friend or Foe"),
        S("2025-06-27 =6", n=6),
    ]),
    555: dict(seasons=[  # Avatar: The Last Airbender
        S("2005-02-21 =2; 2005-02-25..2005-12-02 n18", "The Boy in the Iceberg|The Avatar Returns|"
          "The Southern Air Temple|The Warriors of Kyoshi|The King of Omashu|Imprisoned|"
          "The Spirit World (Winter Solstice, Part 1)|Avatar Roku (Winter Solstice, Part 2)|"
          "The Waterbending Scroll|Jet|The Great Divide|The Storm|The Blue Spirit|The Fortuneteller|"
          "Bato of the Water Tribe|The Deserter|The Northern Air Temple|The Waterbending Master|"
          "The Siege of the North, Part 1|The Siege of the North, Part 2", name="Book One: Water"),
        S("2006-03-17..2006-12-01 n20", "The Avatar State|The Cave of Two Lovers|Return to Omashu|The Swamp|"
          "Avatar Day|The Blind Bandit|Zuko Alone|The Chase|Bitter Work|The Library|The Desert|"
          "The Serpent's Pass|The Drill|City of Walls and Secrets|Tales of Ba Sing Se|Appa's Lost Days|"
          "Lake Laogai|The Earth King|The Guru|The Crossroads of Destiny", name="Book Two: Earth"),
        S("2007-09-21..2008-07-18 n17; 2008-07-19 =4", "The Awakening|The Headband|The Painted Lady|"
          "Sokka's Master|The Beach|The Avatar and the Fire Lord|The Runaway|The Puppetmaster|"
          "Nightmares and Daydreams|The Day of Black Sun, Part 1: The Invasion|"
          "The Day of Black Sun, Part 2: The Eclipse|The Western Air Temple|The Firebending Masters|"
          "The Boiling Rock, Part 1|The Boiling Rock, Part 2|The Southern Raiders|The Ember Island Players|"
          "Sozin's Comet, Part 1: The Phoenix King|Sozin's Comet, Part 2: The Old Masters|"
          "Sozin's Comet, Part 3: Into the Inferno|Sozin's Comet, Part 4: Avatar Aang", name="Book Three: Fire"),
    ]),
    216: dict(seasons=[  # Rick and Morty
        S("2013-12-02..2014-04-14 n11", "Pilot|Lawnmower Dog|Anatomy Park|M. Night Shaym-Aliens!|"
          "Meeseeks and Destroy|Rick Potion #9|Raising Gazorpazorp|Rixty Minutes|Something Ricked This Way Comes|"
          "Close Rick-counters of the Rick Kind|Ricksy Business"),
        S("2015-07-26 x10", "A Rickle in Time|Mortynight Run|Auto Erotic Assimilation|Total Rickall|Get Schwifty|"
          "The Ricks Must Be Crazy|Big Trouble in Little Sanchez|Interdimensional Cable 2: Tempting Fate|"
          "Look Who's Purging Now|The Wedding Squanchers"),
        S("2017-04-01 x1; 2017-07-30..2017-10-01 n9", "The Rickshank Rickdemption|Rickmancing the Stone|Pickle Rick|"
          "Vindicators 3: The Return of Worldender|The Whirly Dirly Conspiracy|Rest and Ricklaxation|"
          "The Ricklantis Mixup|Morty's Mind Blowers|The ABC's of Beth|The Rickchurian Mortydate"),
        S("2019-11-10 x5; 2020-05-03 x5", "Edge of Tomorty: Rick Die Rickpeat|The Old Man and the Seat|"
          "One Crew over the Crewcoo's Morty|Claw and Hoarder: Special Ricktim's Morty|Rattlestar Ricklactica|"
          "Never Ricking Morty|Promortyus|The Vat of Acid Episode|Childrick of Mort|"
          "Star Mort Rickturn of the Jerri"),
        S("2021-06-20..2021-09-05 n10", "Mort Dinner Rick Andre|Mortyplicity|A Rickconvenient Mort|"
          "Rickdependence Spray|Amortycan Grickfitti|Rick & Morty's Thanksploitation Spectacular|"
          "Gotron Jerrysis Rickvangelion|Rickternal Friendshine of the Spotless Mort|Forgetting Sarick Mortshall|"
          "Rickmurai Jack"),
        S("2022-09-04..2022-12-11 n10", "Solaricks|Rick: A Mort Well Lived|Bethic Twinstinct|Night Family|"
          "Final DeSmithation|JuRicksic Mort|Full Meta Jackrick|Analyze Piss|A Rick in King Mortur's Mort|"
          "Ricktional Mortpoon's Rickmas Mortcation"),
        S("2023-10-15 x10", "How Poopy Got His Poop Back|The Jerrick Trap|Air Force Wong|That's Amorte|"
          "Unmortricken|Rickfending Your Mort|Wet Kuat Amortican Summer|Rise of the Numbericons: The Movie|"
          "Mort: Ragnarick|Fear No Mort"),
        S("2025-05-25 x10", "Summer of All Fears|Valkyrick|The Rick, the Mort & the Ugly|"
          "The Last Temptation of Jerry|Cryo Mort a Rickver|The Curicksous Case of Bethjamin Button|"
          "Ricker than Fiction|Nomortland|Morty Daddy|Hot Rick"),
    ]),
    83: dict(seasons=[S(f"{a}..{b} n{n}", n=n) for a, b, n in [  # The Simpsons, seasons 1-36
        ("1989-12-17", "1990-05-13", 13), ("1990-10-11", "1991-07-11", 22), ("1991-09-19", "1992-08-27", 24),
        ("1992-09-24", "1993-05-13", 22), ("1993-09-30", "1994-05-19", 22), ("1994-09-04", "1995-05-21", 25),
        ("1995-09-17", "1996-05-19", 25), ("1996-10-27", "1997-05-18", 25), ("1997-09-21", "1998-05-17", 25),
        ("1998-08-23", "1999-05-16", 23), ("1999-09-26", "2000-05-21", 22), ("2000-11-01", "2001-05-20", 21),
        ("2001-11-06", "2002-05-22", 22), ("2002-11-03", "2003-05-18", 22), ("2003-11-02", "2004-05-23", 22),
        ("2004-11-07", "2005-05-15", 21), ("2005-09-11", "2006-05-21", 22), ("2006-09-10", "2007-05-20", 22),
        ("2007-09-23", "2008-05-18", 20), ("2008-09-28", "2009-05-17", 21), ("2009-09-27", "2010-05-23", 23),
        ("2010-09-26", "2011-05-22", 22), ("2011-09-25", "2012-05-20", 22), ("2012-09-30", "2013-05-19", 22),
        ("2013-09-29", "2014-05-18", 22), ("2014-09-28", "2015-05-17", 22), ("2015-09-27", "2016-05-22", 22),
        ("2016-09-25", "2017-05-21", 22), ("2017-10-01", "2018-05-20", 21), ("2018-09-30", "2019-05-12", 23),
        ("2019-09-29", "2020-05-17", 22), ("2020-09-27", "2021-05-23", 22), ("2021-09-26", "2022-05-22", 22),
        ("2022-09-25", "2023-05-21", 22), ("2023-10-01", "2024-05-19", 18), ("2024-09-29", "2025-05-18", 22),
    ]]),
    768: dict(seasons=[  # Planet Earth
        S("2006-03-05 x5; 2006-11-05 x6", "From Pole to Pole|Mountains|Fresh Water|Caves|Deserts|Ice Worlds", n=11),
    ]),
    32: dict(seasons=[  # Fargo
        S("2014-04-15 x10", "The Crocodile's Dilemma|The Rooster Prince|A Muddy Road|Eating the Blame|"
          "The Six Ungraspables|Buridan's Ass|Who Shaves the Barber?|The Heap|A Fox, a Rabbit, and a Cabbage|"
          "Morton's Fork"),
        S("2015-10-12 x10", "Waiting for Dutch|Before the Law|The Myth of Sisyphus|Fear and Trembling|"
          "The Gift of the Magi|Rhinoceros|Did You Do This? No, You Did It!|Loplop|The Castle|Palindrome"),
        S("2017-04-19 x10", "The Law of Vacant Places|The Principle of Restricted Choice|"
          "The Law of Non-Contradiction|The Narrow Escape Problem|The House of Special Purpose|"
          "The Lord of No Mercy|The Law of Inevitability|Who Rules the Land of Denial?|Aporia|Somebody to Love"),
        S("2020-09-27 =2; 2020-10-04 x9", "Welcome to the Alternate Economy|The Land of Taking and Killing|"
          "Raddoppiarlo|The Pretend War|The Birthplace of Civilization|Camp Elegance|Lay Away|The Nadir|"
          "East/West|Happy|Storia Americana"),
        S("2023-11-21 =2; 2023-11-28 x8", n=10),
    ]),
    5: dict(seasons=[  # True Detective
        S("2014-01-12 x3; 2014-02-09 x5", "The Long Bright Dark|Seeing Things|The Locked Room|Who Goes There|"
          "The Secret Fate of All Life|Haunted Houses|After You've Gone|Form and Void"),
        S("2015-06-21 x8", "The Western Book of the Dead|Night Finds You|Maybe Tomorrow|Down Will Come|"
          "Other Lives|Church in Ruins|Black Maps and Motel Rooms|Omega Station"),
        S("2019-01-13 =2; 2019-01-20 x6", "The Great War and Modern Memory|Kiss Tomorrow Goodbye|The Big Never|"
          "The Hour and the Day|If You Have Ghosts|Hunters in the Dark|The Final Country|Now Am Found"),
        S("2024-01-14 x6", "Part 1|Part 2|Part 3|Part 4|Part 5|Part 6", name="Night Country"),
    ]),
    1871: dict(at="22:00", seasons=[  # Mr. Robot
        S("2015-06-24 x10", "eps1.0_hellofriend.mov|eps1.1_ones-and-zer0es.mpeg|eps1.2_d3bug.mkv|"
          "eps1.3_da3m0ns.mp4|eps1.4_3xpl0its.wmv|eps1.5_br4ve-trave1er.asf|eps1.6_v1ew-s0urce.flv|"
          "eps1.7_wh1ter0se.m4v|eps1.8_m1rr0r1ng.qt|eps1.9_zer0-day.avi"),
        S("2016-07-13 =2; 2016-07-20 x10", n=12),
        S("2017-10-11 x10", n=10),
        S("2019-10-06..2019-12-22 n13", n=13),
    ]),
    1775: dict(seasons=[  # Schitt's Creek
        S("2015-01-13..2015-03-31 n13", n=13),
        S("2016-01-12 x13", n=13),
        S("2017-01-10 x13", n=13),
        S("2018-01-09 x12", n=12),
        S("2019-01-08..2019-04-02 n14", n=14),
        S("2020-01-07 x14", n=14),
    ]),
    49: dict(seasons=[  # Brooklyn Nine-Nine (seasons 1-5 on FOX, 6-8 on NBC)
        S("2013-09-17..2014-03-25 n22", n=22),
        S("2014-09-28..2015-05-17 n23", n=23),
        S("2015-09-27..2016-04-19 n23", n=23),
        S("2016-09-20..2017-05-23 n22", n=22),
        S("2017-09-26..2018-05-20 n22", n=22),
        S("2019-01-10..2019-05-16 n18", n=18),
        S("2020-02-06..2020-04-23 n13", n=13),
        S("2021-08-12 x8 p2; 2021-09-16 =2", n=10),
    ]),
    46562: dict(seasons=[  # The Last of Us
        S("2023-01-15 x4; 2023-02-10 x1; 2023-02-19 x4", "When You're Lost in the Darkness|Infected|"
          "Long, Long Time|Please Hold to My Hand|Endure and Survive|Kin|Left Behind|When We Are in Need|"
          "Look for the Light"),
        S("2025-04-13 x7", "Future Days|Through the Valley|The Path|Day One|Feel Her Love|The Price|Convergence"),
    ]),
    465: dict(seasons=[  # Band of Brothers
        S("2001-09-09 =2; 2001-09-16 x8", "Currahee|Day of Days|Carentan|Replacements|Crossroads|Bastogne|"
          "The Breaking Point|The Last Patrol|Why We Fight|Points"),
    ]),
    180: dict(seasons=[  # Firefly: numbered in FOX's broadcast order; the three episodes FOX never aired last
        S("2002-09-20 x3; 2002-10-18 x5; 2002-12-06 x3; 2003-06-23 x3", "The Train Job|Bushwhacked|"
          "Our Mrs. Reynolds|Jaynestown|Out of Gas|Shindig|Safe|Ariel|War Stories|Objects in Space|Serenity|"
          "Trash|The Message|Heart of Gold"),
    ]),
    565: dict(seasons=[  # Deadwood
        S("2004-03-21 x12", "Deadwood|Deep Water|Reconnoitering the Rim|Here Was a Man|The Trial of Jack McCall|"
          "Plague|Bullock Returns to the Camp|Suffer the Little Children|No Other Sons or Daughters|Mister Wu|"
          "Jewel's Boot Is Made for Walking|Sold Under Sin"),
        S("2005-03-06 x12", "A Lie Agreed Upon, Part I|A Lie Agreed Upon, Part II|New Money|Requiem for a Gleet|"
          "Complications|Something Very Expensive|E.B. Was Left Out|Childish Things|Amalgamation and Capital|"
          "Advances, None Miraculous|The Whores Can Come|Boy-the-Earth-Talks-To"),
        S("2006-06-11 x12", "Tell Your God to Ready for Blood|I Am Not the Fine Man You Take Me For|True Colors|"
          "Full Faith and Credit|A Two-Headed Beast|A Rich Find|Unauthorized Cinnamon|Leviathan Smiles|"
          "Amateur Night|A Constant Throb|The Catbird Seat|Tell Him Something Pretty"),
    ]),
    430: dict(at="21:00", seasons=[S(f"{a}..{b} n{n}", n=n) for a, b, n in [  # The X-Files, seasons 1-9
        ("1993-09-10", "1994-05-13", 24), ("1994-09-16", "1995-05-19", 25), ("1995-09-22", "1996-05-17", 24),
        ("1996-10-04", "1997-05-18", 24), ("1997-11-02", "1998-05-17", 20), ("1998-11-08", "1999-05-16", 22),
        ("1999-11-07", "2000-05-21", 22), ("2000-11-05", "2001-05-20", 21), ("2001-11-11", "2002-05-19", 20),
    ]] + [
        S("2016-01-24 x1; 2016-01-25 x5", n=6),
        S("2018-01-03..2018-03-21 n10", n=10),
    ]),
    51394: dict(seasons=[  # The White Lotus
        S("2021-07-11 x6", "Arrivals|New Day|Mysterious Monkeys|Recentering|The Lotus-Eaters|Departures"),
        S("2022-10-30 x7", n=7),
        S("2025-02-16 x8", "Same Spirits, New Forms|Special Treatments|Morally Salvageable|Hide or Seek|"
          "Full-Moon Party|Denials|Killer Instincts|Amor Fati"),
    ]),
    48830: dict(seasons=[  # Only Murders in the Building
        S("2021-08-31 =3; 2021-09-07 x7", "True Crime|Who Is Tim Kono?|How Well Do You Know Your Neighbors?|"
          "The Sting|Twist and Shout|To Protect and Serve|The Boy from 6B|Fan Service|Double Time|Open and Shut"),
        S("2022-06-28 =2; 2022-07-05 x8", n=10),
        S("2023-08-08 =2; 2023-08-15 x8", n=10),
        S("2024-08-27..2024-10-29 n10", n=10),
        S("2025-09-09 =3; 2025-09-16 x7", n=10),
    ]),
    37336: dict(seasons=[  # Shōgun
        S("2024-02-27 =2; 2024-03-05 x8", "Anjin|Servants of Two Masters|Tomorrow Is Tomorrow|The Eightfold Fence|"
          "Broken to the Fist|Ladies of the Willow World|A Stick of Time|The Abyss of Life|Crimson Sky|"
          "A Dream of a Dream"),
    ]),
    900001: dict(seasons=[  # Succession
        S("2018-06-03 x10", "Celebration|Shit Show at the Fuck Factory|Lifeboats|Sad Sack Wasp Trap|"
          "I Went to Market|Which Side Are You On?|Austerlitz|Prague|Pre-Nuptial|Nobody Is Ever Missing"),
        S("2019-08-11 x10", "The Summer Palace|Vaulter|Hunting|Safe Room|Tern Haven|Argestes|Return|Dundee|DC|"
          "This Is Not for Tears"),
        S("2021-10-17 x9", "Secession|Mass in Time of War|The Disruption|Lion in the Meadow|"
          "Retired Janitors of Idaho|What It Takes|Too Much Birthday|Chiantishire|All the Bells Say"),
        S("2023-03-26 x10", "The Munsters|Rehearsal|Connor's Wedding|Honeymoon States|Kill List|Living+|"
          "Tailgate Party|America Decides|Church and State|With Open Eyes"),
    ]),
    900002: dict(seasons=[  # The Bear
        S("2022-06-23 =8", "System|Hands|Brigade|Dogs|Sheridan|Ceres|Review|Braciole"),
        S("2023-06-22 =10", "Beef|Pasta|Sundae|Honeydew|Pop|Fishes|Forks|Bolognese|Omelette|The Bear"),
        S("2024-06-26 =10", "Tomorrow|Next|Doors|Violet|Children|Napkins|Legacy|Ice Chips|Apologies|Forever"),
        S("2025-06-25 =10", n=10),
    ]),
    900003: dict(seasons=[  # Mad Men
        S("2007-07-19..2007-10-18 n13", "Smoke Gets in Your Eyes|Ladies Room|Marriage of Figaro|New Amsterdam|5G|"
          "Babylon|Red in the Face|The Hobo Code|Shoot|Long Weekend|Indian Summer|Nixon vs. Kennedy|The Wheel"),
        S("2008-07-27 x13", n=13),
        S("2009-08-16..2009-11-08 n13", n=13),
        S("2010-07-25 x13", "Public Relations|Christmas Comes But Once a Year|The Good News|The Rejected|"
          "The Chrysanthemum and the Sword|Waldorf Stories|The Suitcase|The Summer Man|The Beautiful Girls|"
          "Hands and Knees|Chinese Wall|Blowing Smoke|Tomorrowland"),
        S("2012-03-25 =2; 2012-04-01 x11", n=13),
        S("2013-04-07 =2; 2013-04-14 x11", n=13),
        S("2014-04-13 x7; 2015-04-05 x7", "Time Zones|A Day's Work|Field Trip|The Monolith|The Runaway|"
          "The Strategy|Waterloo|Severance|New Business|The Forecast|Time & Life|Lost Horizon|"
          "The Milk and Honey Route|Person to Person"),
    ]),
    900004: dict(seasons=[  # Twin Peaks (the 1990-91 run)
        S("1990-04-08 x1; 1990-04-12 x6; 1990-05-23 x1", "Pilot|Traces to Nowhere|"
          "Zen, or the Skill to Catch a Killer|Rest in Pain|The One-Armed Man|Cooper's Dreams|Realization Time|"
          "The Last Evening"),
        S("1990-09-30..1991-06-10 n22", n=22),
    ]),
    900005: dict(seasons=[  # Money Heist (Antena 3's first two parts, then Netflix)
        S("2017-05-02 x9", n=9, name="Part 1"),
        S("2017-10-16..2017-11-23 n6", n=6, name="Part 2"),
        S("2019-07-19 =8", n=8, name="Part 3"),
        S("2020-04-03 =8", n=8, name="Part 4"),
        S("2021-09-03 =5; 2021-12-03 =5", n=10, name="Part 5"),
    ]),
    900006: dict(seasons=[  # Arcane
        S("2021-11-06 =3; 2021-11-13 =3; 2021-11-20 =3", "Welcome to the Playground|"
          "Some Mysteries Are Better Left Unsolved|The Base Violence Necessary for Change|Happy Progress Day!|"
          "Everybody Wants to Be My Enemy|When These Walls Come Tumbling Down|The Boy Savior|Oil and Water|"
          "The Monster You Created"),
        S("2024-11-09 =3; 2024-11-16 =3; 2024-11-23 =3", "Heavy Is the Crown|Watch It All Burn|"
          "Finally Got the Right Words|Paint the Town Blue|Blisters and Bedrock|"
          "The Message Hidden Within the Pattern|Pretend Like It's the First Time|Killing Is a Cycle|"
          "The Dirt Under Your Nails"),
    ]),
    900007: dict(seasons=[  # BoJack Horseman
        S("2014-08-22 =12", "BoJack Horseman: The BoJack Horseman Story, Chapter One|BoJack Hates the Troops|"
          "Prickly-Muffin|Zoës and Zeldas|Live Fast, Diane Nguyen|Our A-Story Is a 'D' Story|Say Anything|"
          "The Telescope|Horse Majeure|One Trick Pony|Downer Ending|Later"),
        S("2015-07-17 =12", n=12),
        S("2016-07-22 =12", n=12),
        S("2017-09-08 =12", n=12),
        S("2018-09-14 =12", n=12),
        S("2019-10-25 =8; 2020-01-31 =8", n=16),
    ], specials=[
        X(1, "2014-12-19", "BoJack Horseman Christmas Special: Sabrina's Christmas Wish"),
    ]),
    900008: dict(at="22:00", seasons=[  # Atlanta
        S("2016-09-06 =2; 2016-09-13 x8", "The Big Bang|Streets on Lock|Go for Broke|The Streisand Effect|"
          "Nobody Beats the Biebs|Value|B.A.N.|The Club|Juneteenth|The Jacket"),
        S("2018-03-01 x11", "Alligator Man|Sportin' Waves|Money Bag Shawty|Helen|Barbershop|Teddy Perkins|FUBU|"
          "Woods|North of the Border|Champagne Papi|Crabs in a Barrel", name="Robbin' Season"),
        S("2022-03-24 =2; 2022-03-31 x8", n=10),
        S("2022-09-15 =2; 2022-09-22 x8", n=10),
    ]),
    900009: dict(seasons=[  # Broad City
        S("2014-01-22 x10", n=10),
        S("2015-01-14 x10", n=10),
        S("2016-02-17 x10", n=10),
        S("2017-08-23 x10", n=10),
        S("2019-01-24 x10", n=10),
    ]),
    900010: dict(seasons=[  # Parks and Recreation
        S("2009-04-09 x6", "Pilot|Canvassing|The Reporter|Boys' Club|The Banquet|Rock Show"),
        S("2009-09-17..2010-05-20 n24", n=24),
        S("2011-01-20..2011-05-19 n16", n=16),
        S("2011-09-22..2012-05-10 n22", n=22),
        S("2012-09-20..2013-05-02 n22", n=22),
        S("2013-09-26..2014-04-24 n22", n=22),
        S("2015-01-13 x13 p2", n=13),
    ]),
    900011: dict(seasons=[  # House of the Dragon
        S("2022-08-21 x10", "The Heirs of the Dragon|The Rogue Prince|Second of His Name|King of the Narrow Sea|"
          "We Light the Way|The Princess and the Queen|Driftmark|The Lord of the Tides|The Green Council|"
          "The Black Queen"),
        S("2024-06-16 x8", "A Son for a Son|Rhaenyra the Cruel|The Burning Mill|The Red Dragon and the Gold|"
          "Regent|Smallfolk|The Red Sowing|The Queen Who Ever Was"),
    ]),
    900012: dict(seasons=[  # Abbott Elementary
        S("2021-12-07 x1; 2022-01-04..2022-04-12 n12", n=13),
        S("2022-09-21..2023-04-19 n22", n=22),
        S("2024-02-07 =2; 2024-02-14..2024-05-08 n12", n=14),
        S("2024-10-09..2025-04-16 n22", n=22),
    ]),
    900013: dict(seasons=[  # Blue Planet II
        S("2017-10-29 x7", "One Ocean|The Deep|Coral Reefs|Big Blue|Green Seas|Coasts|Our Blue Planet"),
    ]),
    900014: dict(seasons=[S(f"{a} x{n}", n=n) for a, n in [  # Taskmaster, series 1-20
        ("2015-07-28", 6), ("2016-06-21", 5), ("2016-10-04", 5), ("2017-04-25", 8), ("2017-09-13", 8),
        ("2018-05-02", 10), ("2018-09-05", 10), ("2019-05-08", 10), ("2019-09-04", 10), ("2020-10-15", 10),
        ("2021-03-18", 10), ("2021-09-23", 10), ("2022-04-14", 10), ("2022-09-29", 10), ("2023-03-30", 10),
        ("2023-09-21", 10), ("2024-03-28", 10), ("2024-09-05", 10), ("2025-04-03", 10), ("2025-09-04", 10),
    ]]),
    900015: dict(seasons=[  # Bluey
        S("2018-10-01 x52 wd", n=52),
        S("2020-03-17 x52 wd", n=52),
        S("2021-09-06 x48 wd; 2024-04-14 x1; 2024-06-02 x1", n=50),
    ]),
}
# Extra names, merged into DATA: show id -> {season number: "|"-separated names}.
NAMES = {
    431: {  # Friends
        1: "The One Where Monica Gets a Roommate|The One with the Sonogram at the End|The One with the Thumb|"
           "The One with George Stephanopoulos|The One with the East German Laundry Detergent|The One with the Butt|"
           "The One with the Blackout|The One Where Nana Dies Twice|The One Where Underdog Gets Away|"
           "The One with the Monkey|The One with Mrs. Bing|The One with the Dozen Lasagnas|The One with the Boobies|"
           "The One with the Candy Hearts|The One with the Stoned Guy|The One with Two Parts (Part 1)|"
           "The One with Two Parts (Part 2)|The One with All the Poker|The One Where the Monkey Gets Away|"
           "The One with the Evil Orthodontist|The One with the Fake Monica|The One with the Ick Factor|"
           "The One with the Birth|The One Where Rachel Finds Out",
        2: "The One with Ross's New Girlfriend|The One with the Breast Milk|The One Where Heckles Dies|"
           "The One with Phoebe's Husband|The One with Five Steaks and an Eggplant|The One with the Baby on the Bus|"
           "The One Where Ross Finds Out|The One with the List|The One with Phoebe's Dad|The One with Russ|"
           "The One with the Lesbian Wedding|The One After the Superbowl (Part 1)|"
           "The One After the Superbowl (Part 2)|The One with the Prom Video|"
           "The One Where Ross and Rachel... You Know|The One Where Joey Moves Out|The One Where Eddie Moves In|"
           "The One Where Dr. Ramoray Dies|The One Where Eddie Won't Go|The One Where Old Yeller Dies|"
           "The One with the Bullies|The One with the Two Parties|The One with the Chicken Pox|"
           "The One with Barry and Mindy's Wedding",
        3: "The One with the Princess Leia Fantasy|The One Where No One's Ready|The One with the Jam|"
           "The One with the Metaphorical Tunnel|The One with Frank Jr.|The One with the Flashback|"
           "The One with the Race Car Bed|The One with the Giant Poking Device|The One with the Football|"
           "The One Where Rachel Quits|The One Where Chandler Can't Remember Which Sister|"
           "The One with All the Jealousy|The One Where Monica and Richard Are Just Friends|"
           "The One with Phoebe's Ex-Partner|The One Where Ross and Rachel Take a Break|The One the Morning After|"
           "The One Without the Ski Trip|The One with the Hypnosis Tape|The One with the Tiny T-Shirt|"
           "The One with the Dollhouse|The One with a Chick and a Duck|The One with the Screamer|"
           "The One with Ross's Thing|The One with the Ultimate Fighting Champion|The One at the Beach",
        4: "The One with the Jellyfish|The One with the Cat|The One with the 'Cuffs|The One with the Ballroom Dancing|"
           "The One with Joey's New Girlfriend|The One with the Dirty Girl|The One Where Chandler Crosses the Line|"
           "The One with Chandler in a Box|The One Where They're Going to Party!|"
           "The One with the Girl from Poughkeepsie|The One with Phoebe's Uterus|The One with the Embryos|"
           "The One with Rachel's Crush|The One with Joey's Dirty Day|The One with All the Rugby|"
           "The One with the Fake Party|The One with the Free Porn|The One with Rachel's New Dress|"
           "The One with All the Haste|The One with All the Wedding Dresses|The One with the Invitation|"
           "The One with the Worst Best Man Ever|The One with Ross's Wedding (Part 1)|"
           "The One with Ross's Wedding (Part 2)",
        5: "The One After Ross Says Rachel|The One with All the Kissing|The One Hundredth|"
           "The One Where Phoebe Hates PBS|The One with the Kips|The One with the Yeti|The One Where Ross Moves In|"
           "The One with All the Thanksgivings|The One with Ross's Sandwich|The One with the Inappropriate Sister|"
           "The One with All the Resolutions|The One with Chandler's Work Laugh|The One with Joey's Bag|"
           "The One Where Everybody Finds Out|The One with the Girl Who Hits Joey|The One with the Cop|"
           "The One with Rachel's Inadvertent Kiss|The One Where Rachel Smokes|The One Where Ross Can't Flirt|"
           "The One with the Ride-Along|The One with the Ball|The One with Joey's Big Break|"
           "The One in Vegas (Part 1)|The One in Vegas (Part 2)",
        6: "The One After Vegas|The One Where Ross Hugs Rachel|The One with Ross's Denial|"
           "The One Where Joey Loses His Insurance|The One with Joey's Porsche|The One on the Last Night|"
           "The One Where Phoebe Runs|The One with Ross's Teeth|The One Where Ross Got High|The One with the Routine|"
           "The One with the Apothecary Table|The One with the Joke|The One with Rachel's Sister|"
           "The One Where Chandler Can't Cry|The One That Could Have Been (Part 1)|"
           "The One That Could Have Been (Part 2)|The One with Unagi|The One Where Ross Dates a Student|"
           "The One with Joey's Fridge|The One with Mac and C.H.E.E.S.E.|The One Where Ross Meets Elizabeth's Dad|"
           "The One Where Paul's the Man|The One with the Ring|The One with the Proposal (Part 1)|"
           "The One with the Proposal (Part 2)",
        7: "The One with Monica's Thunder|The One with Rachel's Book|The One with Phoebe's Cookies|"
           "The One with Rachel's Assistant|The One with the Engagement Picture|The One with the Nap Partners|"
           "The One with Ross's Library Book|The One Where Chandler Doesn't Like Dogs|The One with All the Candy|"
           "The One with the Holiday Armadillo|The One with All the Cheesecakes|The One Where They're Up All Night|"
           "The One Where Rosita Dies|The One Where They All Turn Thirty|The One with Joey's New Brain|"
           "The One with the Truth About London|The One with the Cheap Wedding Dress|The One with Joey's Award|"
           "The One with Ross and Monica's Cousin|The One with Rachel's Big Kiss|The One with the Vows|"
           "The One with Chandler's Dad|The One with Monica and Chandler's Wedding (Part 1)|"
           "The One with Monica and Chandler's Wedding (Part 2)",
        8: "The One After \"I Do\"|The One with the Red Sweater|The One Where Rachel Tells...|"
           "The One with the Videotape|The One with Rachel's Date|The One with the Halloween Party|"
           "The One with the Stain|The One with the Stripper|The One with the Rumor|The One with Monica's Boots|"
           "The One with Ross's Step Forward|The One Where Joey Dates Rachel|The One Where Chandler Takes a Bath|"
           "The One with the Secret Closet|The One with the Birthing Video|The One Where Joey Tells Rachel|"
           "The One with the Tea Leaves|The One in Massapequa|The One with Joey's Interview|"
           "The One with the Baby Shower|The One with the Cooking Class|The One Where Rachel Is Late|"
           "The One Where Rachel Has a Baby (Part 1)|The One Where Rachel Has a Baby (Part 2)",
        9: "The One Where No One Proposes|The One Where Emma Cries|The One with the Pediatrician|"
           "The One with the Sharks|The One with Phoebe's Birthday Dinner|The One with the Male Nanny|"
           "The One with Ross's Inappropriate Song|The One with Rachel's Other Sister|"
           "The One with Rachel's Phone Number|The One with Christmas in Tulsa|"
           "The One Where Rachel Goes Back to Work|The One with Phoebe's Rats|The One Where Monica Sings|"
           "The One with the Blind Dates|The One with the Mugging|The One with the Boob Job|"
           "The One with the Memorial Service|The One with the Lottery|The One with Rachel's Dream|"
           "The One with the Soap Opera Party|The One with the Fertility Test|The One with the Donor|"
           "The One in Barbados (Part 1)|The One in Barbados (Part 2)",
        10: "The One After Joey and Rachel Kiss|The One Where Ross Is Fine|The One with Ross's Tan|"
            "The One with the Cake|The One Where Rachel's Sister Babysits|The One with Ross's Grant|"
            "The One with the Home Study|The One with the Late Thanksgiving|The One with the Birth Mother|"
            "The One Where Chandler Gets Caught|The One Where the Stripper Cries|The One with Phoebe's Wedding|"
            "The One Where Joey Speaks French|The One with Princess Consuela|The One Where Estelle Dies|"
            "The One with Rachel's Going Away Party|The Last One (Part 1)|The Last One (Part 2)",
    },
    526: {  # The Office
        2: "The Dundies|Sexual Harassment|Office Olympics|The Fire|Halloween|The Fight|The Client|"
           "Performance Review|Email Surveillance|Christmas Party|Booze Cruise|The Injury|The Secret|The Carpet|"
           "Boys and Girls|Valentine's Day|Dwight's Speech|Take Your Daughter to Work Day|Michael's Birthday|"
           "Drug Testing|Conflict Resolution|Casino Night",
        3: "Gay Witch Hunt|The Convention|The Coup|Grief Counseling|Initiation|Diwali|Branch Closing|The Merger|"
           "The Convict|A Benihana Christmas (Part 1)|A Benihana Christmas (Part 2)|Back from Vacation|"
           "Traveling Salesmen|The Return|Ben Franklin|Phyllis' Wedding|Business School|Cocktails|The Negotiation|"
           "Safety Training|Product Recall|Women's Appreciation|Beach Games|The Job (Part 1)|The Job (Part 2)",
        4: "Fun Run (Part 1)|Fun Run (Part 2)|Dunder Mifflin Infinity (Part 1)|Dunder Mifflin Infinity (Part 2)|"
           "Launch Party (Part 1)|Launch Party (Part 2)|Money (Part 1)|Money (Part 2)|Local Ad|Branch Wars|"
           "Survivor Man|The Deposition|Dinner Party|Chair Model|Night Out|Did I Stutter?|Job Fair|"
           "Goodbye, Toby (Part 1)|Goodbye, Toby (Part 2)",
        5: "Weight Loss (Part 1)|Weight Loss (Part 2)|Business Ethics|Baby Shower|Crime Aid|Employee Transfer|"
           "Customer Survey|Business Trip|Frame Toby|The Surplus|Moroccan Christmas|The Duel|Prince Family Paper|"
           "Stress Relief (Part 1)|Stress Relief (Part 2)|Lecture Circuit (Part 1)|Lecture Circuit (Part 2)|"
           "Blood Drive|Golden Ticket|New Boss|Two Weeks|Dream Team|Michael Scott Paper Company|"
           "Heavy Competition|Broke|Casual Friday|Cafe Disco|Company Picnic",
        6: "Gossip|The Meeting|The Promotion|Niagara (Part 1)|Niagara (Part 2)|Mafia|The Lover|Koi Pond|"
           "Double Date|Murder|Shareholder Meeting|Scott's Tots|Secret Santa|The Banker|Sabre|"
           "The Manager and the Salesman|The Delivery (Part 1)|The Delivery (Part 2)|St. Patrick's Day|New Leads|"
           "Happy Hour|Secretary's Day|Body Language|The Cover-Up|The Chump|Whistleblower",
        7: "Nepotism|Counseling|Andy's Play|Sex Ed|The Sting|Costume Contest|Christening|Viewing Party|"
           "WUPHF.com|China|Classy Christmas (Part 1)|Classy Christmas (Part 2)|Ultimatum|The Seminar|The Search|"
           "PDA|Threat Level Midnight|Todd Packer|Garage Sale|Training Day|Michael's Last Dundies|"
           "Goodbye, Michael|The Inner Circle|Dwight K. Schrute, (Acting) Manager|Search Committee (Part 1)|"
           "Search Committee (Part 2)",
        8: "The List|The Incentive|Lotto|Garden Party|Spooked|Doomsday|Pam's Replacement|Gettysburg|"
           "Mrs. California|Christmas Wishes|Trivia|Pool Party|Jury Duty|Special Project|Tallahassee|After Hours|"
           "Test the Store|Last Day in Florida|Get the Girl|Welcome Party|Angry Andy|Fundraiser|Turf War|"
           "Free Family Portrait Studio",
    },
    530: {  # Seinfeld
        1: "The Seinfeld Chronicles|The Stake Out|The Robbery|Male Unbonding|The Stock Tip",
        2: "The Ex-Girlfriend|The Pony Remark|The Jacket|The Phone Message|The Apartment|The Statue|The Revenge|"
           "The Heart Attack|The Deal|The Baby Shower|The Chinese Restaurant|The Busboy",
    },
    430: {  # The X-Files
        1: "Pilot|Deep Throat|Squeeze|Conduit|The Jersey Devil|Shadows|Ghost in the Machine|Ice|Space|"
           "Fallen Angel|Eve|Fire|Beyond the Sea|Gender Bender|Lazarus|Young at Heart|E.B.E.|Miracle Man|Shapes|"
           "Darkness Falls|Tooms|Born Again|Roland|The Erlenmeyer Flask",
        2: "Little Green Men|The Host|Blood|Sleepless|Duane Barry|Ascension|3|One Breath|Firewalker|Red Museum|"
           "Excelsis Dei|Aubrey|Irresistible|Die Hand Die Verletzt|Fresh Bones|Colony|End Game|Fearful Symmetry|"
           "Død Kalm|Humbug|The Calusari|F. Emasculata|Soft Light|Our Town|Anasazi",
        3: "The Blessing Way|Paper Clip|D.P.O.|Clyde Bruckman's Final Repose|The List|2Shy|The Walk|Oubliette|"
           "Nisei|731|Revelations|War of the Coprophages|Syzygy|Grotesque|Piper Maru|Apocrypha|Pusher|"
           "Teso Dos Bichos|Hell Money|Jose Chung's From Outer Space|Avatar|Quagmire|Wetwired|Talitha Cumi",
        10: "My Struggle|Founder's Mutation|Mulder and Scully Meet the Were-Monster|Home Again|Babylon|"
            "My Struggle II",
        11: "My Struggle III|This|Plus One|The Lost Art of Forehead Sweat|Ghouli|Kitten|Rm9sbG93ZXJz|Familiar|"
            "Nothing Lasts Forever|My Struggle IV",
    },
    900003: {  # Mad Men
        2: "For Those Who Think Young|Flight 1|The Benefactor|Three Sundays|The New Girl|Maidenform|"
           "The Gold Violin|A Night to Remember|Six Month Leave|The Inheritance|The Jet Set|The Mountain King|"
           "Meditations in an Emergency",
        3: "Out of Town|Love Among the Ruins|My Old Kentucky Home|The Arrangements|The Fog|"
           "Guy Walks into an Advertising Agency|Seven Twenty Three|Souvenir|Wee Small Hours|The Color Blue|"
           "The Gypsy and the Hobo|The Grown-Ups|Shut the Door. Have a Seat.",
        5: "A Little Kiss (Part 1)|A Little Kiss (Part 2)|Tea Leaves|Mystery Date|Signal 30|Far Away Places|"
           "At the Codfish Ball|Lady Lazarus|Dark Shadows|Christmas Waltz|The Other Woman|Commissions and Fees|"
           "The Phantom",
        6: "The Doorway (Part 1)|The Doorway (Part 2)|Collaborators|To Have and to Hold|The Flood|"
           "For Immediate Release|Man with a Plan|The Crash|The Better Half|A Tale of Two Cities|Favors|"
           "The Quality of Mercy|In Care Of",
    },
    900007: {  # BoJack Horseman
        2: "Brand New Couch|Yesterdayland|Still Broken|After the Party|Chickens|Higher Love|Hank After Dark|"
           "Let's Find Out|The Shot|Yes And|Escape from L.A.|Out to Sea",
        3: "Start Spreading the News|The BoJack Horseman Show|BoJack Kills|Fish Out of Water|Love And/Or Marriage|"
           "Brrap Brrap Pew Pew|Stop the Presses|Old Acquaintance|Best Thing That Ever Happened|It's You|"
           "That's Too Much, Man!|That Went Well",
        4: "See Mr. Peanutbutter Run|The Old Sugarman Place|Hooray! Todd Episode!|Commence Fracking|"
           "Thoughts and Prayers|Stupid Piece of Sh*t|Underground|The Judge|Ruthie|lovin that cali lifestyle!!|"
           "Time's Arrow|What Time Is It Right Now",
        5: "The Light Bulb Scene|The Dog Days Are Over|Planned Obsolescence|BoJack the Feminist|Philbert|"
           "Free Churro|INT. SUB|Mr. Peanutbutter's Boos|Ancient History|Head in the Clouds|The Showstopper|"
           "The Stopped Show",
    },
}


def merge_names():
    for show_id, by_season in NAMES.items():
        for number, names in by_season.items():
            season = DATA[show_id]["seasons"][number - 1]
            merged = Season(season.air, names, n=season.n, name=season.name)
            assert merged.named == season.n, (show_id, number, merged.named, season.n)
            DATA[show_id]["seasons"][number - 1] = merged


merge_names()


# ----------------------------------------------------------------------------------------- generator
UTC = dt.timezone.utc


def parse_date(text):
    return dt.date.fromisoformat(text)


def block_dates(block):
    """Airdates for one block of a Season.air string (see the module docstring)."""
    words = block.split()
    if ".." in words[0]:
        first, last = (parse_date(x) for x in words[0].split(".."))
        count = int(words[1][1:])
        if count == 1:
            return [first]
        week = dt.timedelta(days=7)
        if (last - first).days >= 7 * (count - 1):  # a break: forward from the premiere, back from the finale
            head = (count + 1) // 2
            return [first + week * i for i in range(head)] + \
                   [last - week * (count - 1 - i) for i in range(head, count)]
        return [min(first + week * i, last) for i in range(count)]
    start = parse_date(words[0])
    if words[1].startswith("="):
        return [start] * int(words[1][1:])
    count = int(words[1][1:])
    flags = words[2:]
    per = int(next((f[1:] for f in flags if f.startswith("p")), 1))
    if "wd" in flags:
        dates, day = [], start
        while len(dates) < count:
            if day.weekday() < 5:
                dates.append(day)
            day += dt.timedelta(days=1)
        return dates
    return [start + dt.timedelta(days=7 * (i // per)) for i in range(count)]


def season_dates(season):
    dates = [d for block in season.air.split(";") for d in block_dates(block.strip())]
    assert len(dates) == season.n, (season.air, len(dates), season.n)
    assert dates == sorted(dates), season.air
    return [d.isoformat() for d in dates]


def zone_of(channel):
    country = (channel or {}).get("country") or {}
    return ZoneInfo(country["timezone"]) if country.get("timezone") else UTC


def airstamp(airdate, airtime, zone):
    """UTC instant with a +00:00 offset: airdate+airtime where the show airs; no airtime, noon there."""
    hour, minute = (int(x) for x in airtime.split(":")) if airtime else (12, 0)
    local = dt.datetime.combine(parse_date(airdate), dt.time(hour, minute), tzinfo=zone)
    return local.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def build(shows):
    by_id = {show["id"]: show for show in shows}
    missing = set(by_id) - set(DATA)
    extra = set(DATA) - set(by_id)
    assert not missing and not extra, (missing, extra)
    out = {}
    episode_id, season_id = FIRST_EPISODE_ID, FIRST_SEASON_ID
    for show in shows:  # shows.json order, so ids are stable
        spec = DATA[show["id"]]
        network, web = show.get("network"), show.get("webChannel")
        c4_seasons, c4_until = spec.get("channel4_seasons", ()), spec.get("channel4_until")
        runtime = show.get("runtime") or spec.get("rt") or show.get("averageRuntime")
        default_time = spec.get("at", (show.get("schedule") or {}).get("time") or "")

        def channels(season_number, airdate):
            if c4_until is None:
                return network, web
            if season_number in c4_seasons or airdate < c4_until:
                return network, None
            return None, web

        def make(number_in_season, season_number, name, airdate, kind, airtime, minutes):
            net, webch = channels(season_number, airdate)
            zone = zone_of(net) if net else zone_of(webch)
            return {
                "id": None, "url": None, "name": name, "season": season_number,
                "number": number_in_season, "type": kind, "airdate": airdate, "airtime": airtime,
                "airstamp": airstamp(airdate, airtime, zone), "runtime": minutes,
                "rating": {"average": None}, "image": None, "summary": None,
                "_links": {"self": None,
                           "show": {"href": f"{API}/shows/{show['id']}", "name": show["name"]}},
            }

        episodes = []
        for number, season in enumerate(spec["seasons"], start=1):
            for index, (name, airdate) in enumerate(zip(season.names, season_dates(season)), start=1):
                airtime = default_time if channels(number, airdate)[0] else ""
                episodes.append(make(index, number, name, airdate, "regular", airtime, runtime))
        for special in spec.get("specials", []):
            net = channels(special.season, special.airdate)[0]
            airtime = special.airtime if special.airtime is not None else (default_time if net else "")
            episodes.append(make(None, special.season, special.name, special.airdate, special.type, airtime,
                                 special.runtime or runtime))
        episodes.sort(key=lambda e: e["airstamp"])  # stable: same-instant episodes keep their order
        for episode in episodes:
            episode["id"] = episode_id
            episode["_links"]["self"] = {"href": f"{API}/episodes/{episode_id}"}
            episode_id += 1

        seasons = []
        for number, season in enumerate(spec["seasons"], start=1):
            regular = [e for e in episodes if e["season"] == number and e["type"] == "regular"]
            net, webch = channels(number, regular[0]["airdate"])
            seasons.append({
                "id": season_id, "url": None, "number": number, "name": season.name,
                "episodeOrder": len(regular),
                "premiereDate": min(e["airdate"] for e in regular),
                "endDate": max(e["airdate"] for e in regular),
                "network": net, "webChannel": webch, "image": None, "summary": None,
                "_links": {"self": {"href": f"{API}/seasons/{season_id}"}},
            })
            season_id += 1
        out[str(show["id"])] = {"seasons": seasons, "episodes": episodes}
    return out


def dump(data):
    """Compact JSON, one season or episode per line."""
    def one(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    lines = ["{"]
    items = list(data.items())
    for i, (show_id, entry) in enumerate(items):
        lines.append(f'{one(show_id)}:{{"seasons":[')
        lines.append(",\n".join(one(s) for s in entry["seasons"]))
        lines.append('],"episodes":[')
        lines.append(",\n".join(one(e) for e in entry["episodes"]))
        lines.append("]}" + ("," if i < len(items) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    with open(SHOWS_PATH, encoding="utf-8") as handle:
        shows = json.load(handle)
    data = build(shows)
    text = dump(data)
    json.loads(text)  # well-formed
    with open(OUT_PATH, "w", encoding="utf-8") as handle:
        handle.write(text)
    episodes = [e for entry in data.values() for e in entry["episodes"]]
    specials = sum(1 for e in episodes if e["type"] != "regular")
    named = sum(1 for e in episodes if not e["name"].startswith("Episode "))
    print(f"wrote {os.path.relpath(OUT_PATH)}: {len(data)} shows, {len(episodes)} episodes "
          f"({specials} specials, {named} with real names), {len(text.encode()) // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
