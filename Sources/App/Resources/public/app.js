// PopcornSwirl: progressive enhancement. Every action works without this file (forms POST and
// redirect); with it, actions update in place and confirmations/notes use <dialog>.
(function () {
  "use strict";

  const ERROR_TITLE = "Oops, something went wrong";
  const SAVE_FAILED = "There was a problem saving/deleting this movie. Do you want to try again?";
  const SAVE_SHOW_FAILED = "There was a problem saving/deleting this TV Show. Do you want to try again?";
  const FETCH_FAILED = "An error occurred while fetching data. Do you want to try again?";

  // The page's CSRF token: the server refuses a write without it.
  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(16)), function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // Every change carries an Idempotency-Key: sent again (a retry after a lost answer, or from the
  // offline queue), it is done once. `about` names the title and the change for the queue's list.
  // Offline, the service worker keeps the change and answers 202 {queued: true}: `queued` is set.
  function post(url, fields, about) {
    const body = new URLSearchParams(fields);
    const headers = {
      "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded", "X-CSRF-Token": csrfToken(), "Idempotency-Key": newKey(),
    };
    if (about) {
      headers["X-Title"] = encodeURIComponent(about.title || "");
      headers["X-Change"] = encodeURIComponent(about.what || "");
    }
    return fetch(url, { method: "POST", headers: headers, body: body, credentials: "same-origin" }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) {
        const queued = response.status === 202 && json.queued === true;
        if (response.ok && !queued) changedSoon();
        return { ok: response.ok, status: response.status, json: queued ? {} : json, queued: queued };
      });
    });
  }

  // What a change kept offline will make of a card: its buttons show it at once.
  function expectedState(container, fields) {
    const pressed = function (selector) { const button = container && container.querySelector(selector); return !!(button && button.classList.contains("is-on")); };
    const favorite = fields.favorite !== undefined ? fields.favorite === "1" : pressed(".btn-fav");
    const watched = fields.watched !== undefined ? fields.watched === "1" : pressed(".btn-watched");
    return { favorite: favorite, watched: watched, inLibrary: favorite || watched, note: fields.note };
  }

  function markWaiting(container) {
    if (!container || container.querySelector(".sync-badge")) return;
    const badge = document.createElement("span");
    badge.className = "sync-badge";
    badge.textContent = "Waiting to sync";
    const anchor = container.querySelector(".card-meta, .detail-meta, h1, h2");
    // An episode's line keeps its mark inside it (a list holds only its items).
    if (anchor) anchor.after(badge); else if (container.matches("li")) container.appendChild(badge); else container.after(badge);
  }

  function keptOffline(container) {
    markWaiting(container);
    say(titleOf(container) + ": kept on this device, waiting to sync. It is sent when the connection returns.");
  }

  // The retry dialog. `retry` null: a failure that trying again cannot fix (a 404, an expired page,
  // a refused value); the dialog then says what to do instead and offers no Retry (a Reload for an
  // expired page).
  function showRetry(message, retry, reload) {
    const dialog = document.getElementById("retry-dialog");
    if (!dialog) return;
    dialog.querySelector(".retry-text").textContent = message;
    const again = dialog.querySelector("[data-retry]");
    again.hidden = !retry && !reload;
    again.textContent = retry ? "Retry" : "Reload page";
    again.onclick = function () { dialog.close(); if (retry) retry(); else location.reload(); };
    dialog.querySelector("[data-close]").textContent = retry || reload ? "Cancel" : "OK";
    dialog.showModal();
  }

  // Worth trying again: no answer at all, a server or upstream failure, a timeout, "too many".
  function retryable(status) {
    return !status || status >= 500 || status === 408 || status === 429;
  }

  function failure(result, retry, fallback) {
    const detail = result && result.json && result.json.detail;
    if (!result || !result.status) { showRetry(FETCH_FAILED, retry); return; }
    if (retryable(result.status)) { showRetry(detail || fallback || SAVE_FAILED, retry); return; }
    showRetry(detail || "That can’t be done. Reload the page to see the latest.", null, result.status === 403);
  }

  // Search's status line sits at the top of the page. When it is out of sight (a phone scrolled
  // down to the button), it floats above the tab bar for a few seconds, then goes back.
  let flashTimer = null;
  function announce(text) {
    const flash = document.querySelector(".flash");
    if (!flash) return;
    flash.textContent = text;
    flash.hidden = false;
    flash.classList.remove("is-toast");
    const box = flash.getBoundingClientRect();
    const bar = document.querySelector(".topbar");
    const top = bar ? bar.getBoundingClientRect().bottom : 0;
    if (box.top >= top && box.bottom <= window.innerHeight) return;
    flash.classList.add("is-toast");
    clearTimeout(flashTimer);
    flashTimer = setTimeout(function () { flash.classList.remove("is-toast"); }, 6000);
  }

  // What just happened: shown in the toast for a few seconds, and read from the layout's polite
  // live region (emptied first, so the same words twice are still read). Every action confirms here.
  let toastTimer = null;
  function say(text) {
    if (!text) return;
    const live = document.getElementById("live-region");
    if (live) {
      live.textContent = "";
      setTimeout(function () { live.textContent = text; }, 50);
    }
    const toast = document.getElementById("toast");
    if (!toast || document.querySelector(".flash.is-toast")) return;
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toast.hidden = true; }, 6000);
  }

  // A confirmation that must outlive the page: said after the next load (a reload, or the page a
  // form's answer leads to). The server leaves one in the `ps_done` cookie after a form it redirects.
  function sayAfterLoad(text) {
    try { sessionStorage.setItem("ps-done", text); } catch (e) { /* private mode: the page still changes */ }
  }
  (function sayWhatLastPageDid() {
    let text = null;
    try { text = sessionStorage.getItem("ps-done"); sessionStorage.removeItem("ps-done"); } catch (e) { text = null; }
    // Over HTTPS the cookie is `__Host-ps_done` (as all of the app's are).
    const cookie = document.cookie.split("; ").find(function (c) { return /^(__Host-)?ps_done=/.test(c); });
    if (cookie) {
      const name = cookie.slice(0, cookie.indexOf("="));
      document.cookie = name + "=; Path=/; Max-Age=0; SameSite=Lax" + (location.protocol === "https:" ? "; Secure" : "");
      try { text = decodeURIComponent(cookie.slice(name.length + 1)); } catch (e) { text = null; }
    }
    if (text) say(text);
  })();

  // A control busy with its request stays focused (a disabled button would drop focus to <body>):
  // it is marked aria-disabled and its form ignores presses until the answer.
  function setBusy(form, controls, on) {
    if (on) form.dataset.busy = "1"; else delete form.dataset.busy;
    controls.forEach(function (c) { if (on) c.setAttribute("aria-disabled", "true"); else c.removeAttribute("aria-disabled"); });
  }

  // Where focus goes when a card leaves the page: the next card's first control, else the previous
  // card's, else the page's heading.
  function focusAfterLeaving(card) {
    const cards = Array.prototype.slice.call(document.querySelectorAll(".grid .card:not(.sponsored-card)"));
    const at = cards.indexOf(card);
    const next = cards[at + 1] || cards[at - 1];
    return function () {
      // Only when focus was on the card (or already lost): never pull it from where the person moved it.
      const active = document.activeElement;
      if (active && active !== document.body && document.body.contains(active)) return;
      const target = next && document.body.contains(next) ? next.querySelector("button, a.js-remove, a.card-link") : document.querySelector("main h1");
      if (!target) return;
      if (target.tagName === "H1") target.setAttribute("tabindex", "-1");
      target.focus();
    };
  }

  function titleOf(container) {
    return (container && container.dataset.title) || "This title";
  }

  function setToggle(button, on, labels) {
    if (!button) return;
    button.classList.toggle("is-on", on);
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.value = on ? "0" : "1";
    button.textContent = on ? labels.on : labels.off;
  }

  function labelsFor(button, kind) {
    if (button.dataset.on) return { on: button.dataset.on, off: button.dataset.off };
    return kind === "fav" ? { on: "Favorite ✓", off: "Favorite" } : { on: "Watched ✓", off: "Watched" };
  }

  function applyState(container, state) {
    const fav = container.querySelector(".btn-fav");
    const watched = container.querySelector(".btn-watched");
    if (fav) setToggle(fav, state.favorite, labelsFor(fav, "fav"));
    if (watched) setToggle(watched, state.watched, labelsFor(watched, "watched"));
    const noteBox = document.querySelector(".note-box");
    if (noteBox && container.closest(".detail")) noteBox.classList.toggle("is-hidden", !state.watched);
    keepRemoveText(container, state);
    // A film's page offers Remove while the film is in the lists (saved here, it appears at once).
    const removeLine = container.classList.contains("detail") && container.querySelector(".remove-line");
    if (removeLine && state.inLibrary !== undefined) removeLine.hidden = !state.inLibrary;
  }

  // The remove dialog says what Remove would take away now: the server words it after each change.
  function keepRemoveText(container, state) {
    if (!container || !state || !state.removeText) return;
    container.querySelectorAll(".js-remove").forEach(function (link) { link.dataset.text = state.removeText; });
  }

  function cardOrDetail(element) {
    // An episode's check marks its own line (or Up Next card); a show's action sits in the top bar,
    // outside the page's .detail.
    return element.closest(".episode, .up-next-card, .next-episode") || element.closest(".card") || element.closest(".detail")
      || element.closest(".topbar-action");
  }

  function currentList() {
    const params = new URLSearchParams(location.search);
    return location.pathname === "/library" ? (params.get("list") || "all") : null;
  }

  // Takes a card off a My Lists page and keeps the count line and the empty state true.
  function dropCard(card) {
    const grid = card.closest(".grid");
    const refocus = focusAfterLeaving(card);
    card.remove();
    const count = document.querySelector(".count[data-total]");
    if (count) {
      const total = Math.max(0, Number(count.dataset.total) - 1);
      const unit = count.dataset.unit || "title";
      count.dataset.total = String(total);
      count.textContent = (count.dataset.prefix || "") + total + " " + unit + (total === 1 ? "" : "s");
    }
    // A sponsored card is not one of the person's titles: the list is empty without them.
    if (grid && !grid.querySelector(".card:not(.sponsored-card)")) {
      const empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = grid.dataset.empty || "";
      grid.replaceWith(empty);
      if (count) count.remove();
    }
    refocus();
  }

  function removeCardIfOffList(card, state) {
    const list = currentList();
    if (!list || !card.classList.contains("card")) return false;
    const keep = list === "all" ? state.inLibrary : (list === "favorites" ? state.favorite : state.watched);
    if (!keep) { dropCard(card); return true; }
    return false;
  }

  function openNoteDialog(action, returnTo, title, note) {
    const dialog = document.getElementById("note-dialog");
    const form = dialog.querySelector("form");
    const text = dialog.querySelector("textarea");
    const error = dialog.querySelector(".form-error");
    form.action = action;
    form.querySelector("[name=return_to]").value = returnTo || location.pathname + location.search;
    dialog.querySelector(".note-film").textContent = title || "";
    // "Edit note" opens the same dialog: its title says which it is.
    dialog.querySelector("#note-dialog-title").textContent = note ? "Edit your note" : "Add a note";
    text.value = note || "";
    error.hidden = true;
    updateCounter(dialog);
    dialog.showModal();
    text.focus();
  }

  function updateCounter(dialog) {
    const count = dialog.querySelector(".count");
    if (count) count.textContent = String(dialog.querySelector("textarea").value.length);
  }

  function saveNote(form, onSaved) {
    const error = form.querySelector(".form-error");
    const fields = { note: form.querySelector("textarea").value, return_to: form.querySelector("[name=return_to]") ? form.querySelector("[name=return_to]").value : "" };
    const card = document.querySelector('.card[data-movie-id="' + form.action.split("/").pop() + '"]');
    const title = form.querySelector(".note-film") ? form.querySelector(".note-film").textContent : titleOf(card);
    post(form.action, fields, { title: title, what: "Note" }).then(function (result) {
      if (result.queued) {
        onSaved({ note: fields.note, watched: true });
        keptOffline(card || document.querySelector(".detail"));
        return;
      }
      if (result.ok) { onSaved(result.json); return; }
      if (result.status === 422 && error) {
        error.textContent = result.json.detail || "Your note is too long.";
        error.hidden = false;
        return;
      }
      failure(result, function () { saveNote(form, onSaved); });
    }, function () { failure(null, function () { saveNote(form, onSaved); }); });
  }

  function libraryAction(form, submitter) {
    const container = cardOrDetail(form);
    const fields = {};
    new FormData(form).forEach(function (value, key) { fields[key] = value; });
    if (submitter && submitter.name) fields[submitter.name] = submitter.value;
    const buttons = Array.prototype.slice.call(form.querySelectorAll("button"));
    if (form.dataset.busy) return;
    setBusy(form, buttons, true);
    const what = fields.favorite !== undefined ? (fields.favorite === "1" ? "Favorite" : "Not a favorite")
      : fields.watched !== undefined ? (fields.watched === "1" ? "Watched" : "Not watched") : "Change";
    post(form.action, fields, { title: titleOf(container), what: what }).then(function (result) {
      setBusy(form, buttons, false);
      if (result.queued) {
        const expected = expectedState(container, fields);
        keptOffline(container);
        if (!removeCardIfOffList(container, expected)) applyState(container, expected);
        return;
      }
      // Un-marking Watched would remove a film that is not a favorite, with its note: ask first.
      if (result.status === 409 && result.json && result.json.confirm === "unwatch") {
        askThenRemove(container, form.action, fields.return_to, result.json.detail);
        return;
      }
      if (!result.ok) { failure(result, function () { libraryAction(form, submitter); }); return; }
      const state = result.json;
      // The Search screen's Favorite button says what happened in its own status line; elsewhere the live region does.
      const flashed = form.dataset.added && fields.favorite !== undefined;
      if (!flashed) say(state.said || changeSaid(titleOf(container), fields, state));
      if (removeCardIfOffList(container, state)) return;
      applyState(container, state);
      if (fields.watched !== undefined && container.classList.contains("detail")) refreshDiary();
      if (flashed) announce(state.favorite ? form.dataset.added : form.dataset.removed);
      if (state.offerNote) {
        openNoteDialog(form.action, fields.return_to, container.dataset.title, state.note);
      }
    }, function () {
      setBusy(form, buttons, false);
      failure(null, function () { libraryAction(form, submitter); });
    });
  }

  // A rating is saved in place; the select already shows it, the live region says it.
  function rate(form) {
    const container = cardOrDetail(form);
    const select = form.querySelector("select");
    const buttons = Array.prototype.slice.call(form.querySelectorAll("button"));
    if (form.dataset.busy) return;
    const fields = { rating: select.value, return_to: form.querySelector("[name=return_to]").value };
    setBusy(form, buttons, true);
    post(form.action, fields, { title: titleOf(container), what: "Rating" }).then(function (result) {
      setBusy(form, buttons, false);
      if (result.queued) { keptOffline(container); return; }
      if (!result.ok) { failure(result, function () { rate(form); }); return; }
      keepRemoveText(container, result.json);
      if (container && container.classList.contains("detail")) refreshDiary();
      const words = select.options[select.selectedIndex].text.replace(/^[★½]+ /, "");
      say((result.json && result.json.said) || titleOf(container) + (select.value === "0" ? ": rating cleared." : ": rated " + words + "."));
    }, function () {
      setBusy(form, buttons, false);
      failure(null, function () { rate(form); });
    });
  }

  // "Dune: added to Favorites", "Dune: moved to Watched", "Dune: removed from My Lists"…
  function changeSaid(title, fields, state) {
    if (!state.inLibrary) return title + ": removed from My Lists.";
    if (fields.favorite !== undefined && fields.watched !== undefined) {
      return title + (state.watched ? ": moved to Watched." : ": moved to Favorites.");
    }
    if (fields.favorite !== undefined) return title + (state.favorite ? ": added to Favorites." : ": removed from Favorites.");
    if (fields.watched !== undefined) return title + (state.watched ? ": marked as watched." : ": no longer marked as watched.");
    return title + ": saved.";
  }

  // The single action of a TV show: saving turns the green Favorite into a red Delete in place.
  function showAction(form) {
    const button = form.querySelector("button");
    if (form.dataset.busy) return;
    setBusy(form, [button], true);
    const fields = {};
    new FormData(form).forEach(function (value, key) { fields[key] = value; });
    fields.favorite = "1";
    const retry = function () { showAction(form); };
    post(form.action, fields, { title: titleOf(cardOrDetail(form)), what: "Favorite" }).then(function (result) {
      setBusy(form, [button], false);
      if (!result.ok) { failure(result, retry, SAVE_SHOW_FAILED); return; }
      const container = cardOrDetail(form);
      const link = document.createElement("a");
      link.className = "btn-show-action btn-delete-show js-remove";
      link.textContent = "Delete";
      link.href = form.action + "/remove?return_to=" + encodeURIComponent(fields.return_to || location.pathname);
      link.dataset.action = form.action + "/remove";
      link.dataset.return = fields.return_to || "";
      link.dataset.kind = "show";
      link.setAttribute("role", "button");
      const card = form.closest(".card");
      if (card && card.dataset.title) link.setAttribute("aria-label", "Delete " + card.dataset.title);
      const hadFocus = document.activeElement === button;
      form.replaceWith(link);
      if (hadFocus) link.focus();
      if (result.queued) keptOffline(container);
      else say(titleOf(cardOrDetail(link)) + ": added to TV Favorites.");
    }, function () { setBusy(form, [button], false); showRetry(FETCH_FAILED, retry); });
  }

  function showFavoriteForm(link) {
    const form = document.createElement("form");
    form.className = "js-show";
    form.method = "post";
    form.action = link.dataset.action.replace(/\/remove$/, "");
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = "return_to";
    input.value = link.dataset.return || "";
    const token = document.createElement("input");
    token.type = "hidden";
    token.name = "csrf";
    token.value = csrfToken();
    const button = document.createElement("button");
    button.className = "btn-show-action btn-favorite-show";
    button.name = "favorite";
    button.value = "1";
    const card = link.closest(".card");
    if (card && card.dataset.title) button.setAttribute("aria-label", "Favorite " + card.dataset.title);
    button.textContent = "Favorite";
    form.append(token, input, button);
    return form;
  }

  // An episode's check (a show's list, Up Next): sent without leaving the page, and kept offline
  // like every change. The row says what it now is; on Up Next the card is drawn again from the
  // page, so it offers the episode after.
  function episodeAction(form) {
    if (form.dataset.busy) return;
    const button = form.querySelector("button");
    const fields = Object.fromEntries(new FormData(form));
    const row = form.closest(".episode, .up-next-card, .next-episode, .detail");
    const label = button ? (button.getAttribute("aria-label") || "") : "";
    const name = row && row.dataset.title ? row.dataset.title : label.replace(/^(Mark|Unmark) /, "").replace(/ (watched|\(watched\))$/, "");
    const retry = function () { episodeAction(form); };
    setBusy(form, [button], true);
    post(form.action, fields, { title: name, what: fields.mark === "unwatch" ? "Not watched" : "Watched" }).then(function (result) {
      setBusy(form, [button], false);
      if (!result.ok) { failure(result, retry, SAVE_SHOW_FAILED); return; }
      if (form.hasAttribute("data-up-next")) {
        if (result.queued) { keptOffline(row); button.setAttribute("aria-pressed", "true"); return; }
        say(result.json.said);
        refreshUpNextCard(row);
        return;
      }
      const watched = result.queued ? fields.mark !== "unwatch" : !!result.json.watched;
      if (row && row.classList.contains("episode")) row.classList.toggle("is-watched", watched);
      if (button) {
        button.setAttribute("aria-pressed", watched ? "true" : "false");
        button.setAttribute("aria-label", label.replace(/^(Mark|Unmark) /, watched ? "Unmark " : "Mark ")
          .replace(/ (watched|\(watched\))$/, watched ? " (watched)" : " watched"));
      }
      const mark = form.querySelector('input[name="mark"]');
      if (mark && row && row.classList.contains("episode")) mark.value = watched ? "unwatch" : "watch";
      if (result.queued) keptOffline(row);
      else say(result.json.said);
    }, function () { setBusy(form, [button], false); showRetry(FETCH_FAILED, retry); });
  }

  // Up Next after a check: the card as the page now draws it (the next episode), or gone.
  function refreshUpNextCard(card) {
    fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } }).then(function (response) {
      return response.text();
    }).then(function (html) {
      const page = new DOMParser().parseFromString(html, "text/html");
      const fresh = card && page.getElementById(card.id);
      if (!card) return;
      if (fresh) {
        const hadFocus = card.contains(document.activeElement);
        card.replaceWith(document.importNode(fresh, true));
        if (hadFocus) { const check = document.getElementById(card.id).querySelector(".check"); if (check) check.focus(); }
      } else {
        const next = card.nextElementSibling || card.previousElementSibling;
        card.remove();
        const focus = next && next.querySelector(".check, a");
        if (focus) focus.focus(); else { const heading = document.querySelector("h1"); if (heading) { heading.tabIndex = -1; heading.focus(); } }
      }
    }).catch(function () { /* the check was saved; the card shows it at the next load */ });
  }

  // A folded season's episodes: drawn by the server for `?season=N`, loaded when it is opened.
  document.addEventListener("toggle", function (event) {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !details.open || !details.classList.contains("season")) return;
    const link = details.querySelector("a.js-season");
    if (!link || details.dataset.loading) return;
    details.dataset.loading = "1";
    fetch(link.href, { credentials: "same-origin", headers: { "Accept": "text/html" } }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    }).then(function (html) {
      const page = new DOMParser().parseFromString(html, "text/html");
      const fresh = page.getElementById(details.id);
      if (fresh) {
        details.replaceChildren.apply(details, Array.prototype.map.call(fresh.childNodes, function (n) { return document.importNode(n, true); }));
        details.open = true;
      }
    }).catch(function () { delete details.dataset.loading; /* the link still opens the season's page */ });
  }, true);

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.classList.contains("js-episode")) {
      event.preventDefault();
      episodeAction(form);
    } else if (form.classList.contains("js-show")) {
      event.preventDefault();
      showAction(form);
    } else if (form.classList.contains("js-library")) {
      event.preventDefault();
      libraryAction(form, event.submitter);
    } else if (form.classList.contains("js-rating")) {
      event.preventDefault();
      rate(form);
    } else if (form.classList.contains("js-note") || form.classList.contains("note-form")) {
      event.preventDefault();
      saveNote(form, function (state) {
        const dialog = form.closest("dialog");
        if (dialog) dialog.close();
        const card = document.querySelector('.card[data-movie-id="' + form.action.split("/").pop() + '"]');
        const detailText = document.getElementById("note-text");
        if (detailText && state) detailText.value = detailText.defaultValue = state.note || "";
        refreshDiary();
        if (card) refreshCardNote(card, state);
        keepRemoveText(card || document.querySelector(".detail"), state);
        const title = titleOf(card || document.querySelector(".detail"));
        say((state && state.said) || title + ": " + (state && state.note ? "note saved." : "note removed."));
      });
    }
  });

  // A title page's diary after a change that reaches it (marking Watched logs a watch; the note is
  // its latest watch's while they say the same, `WatchNotes`): drawn again from the server's page,
  // so it shows what /diary and the watch's edit form show.
  function refreshDiary() {
    const diary = document.getElementById("diary");
    if (!diary || !document.querySelector(".detail")) return;
    fetch(location.pathname + location.search, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("diary");
        if (!fresh) return;
        const drawn = document.importNode(fresh, true);
        drawn.querySelectorAll(".js-confirm").forEach(function (link) { link.setAttribute("role", "button"); });
        diary.replaceWith(drawn);
        drawn.querySelectorAll("input[type=date]").forEach(echoDay);
      })
      .catch(function () { /* the page still says what was saved; the diary shows on the next visit */ });
  }

  function refreshCardNote(card, state) {
    let quote = card.querySelector(".card-note");
    if (state && state.note && state.watched) {
      if (!quote) {
        quote = document.createElement("blockquote");
        quote.className = "card-note";
        card.querySelector(".card-meta").after(quote);
      }
      quote.textContent = state.note;
    } else if (quote) {
      quote.remove();
    }
    const edit = card.querySelector(".js-edit-note");
    if (edit) { edit.dataset.note = (state && state.note) || ""; edit.textContent = state && state.note ? "Edit note" : "Add note"; }
  }

  document.addEventListener("click", function (event) {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const close = target.closest("[data-close]");
    if (close) { close.closest("dialog").close(); return; }
    const edit = target.closest(".js-edit-note");
    if (edit) {
      event.preventDefault();
      const card = cardOrDetail(edit);
      openNoteDialog(edit.dataset.action, edit.dataset.return, card && card.dataset.title, edit.dataset.note);
      return;
    }
    const remove = target.closest(".js-remove");
    if (remove) {
      event.preventDefault();
      confirmRemove(remove);
      return;
    }
    const confirmLink = target.closest(".js-confirm");
    if (confirmLink) {
      event.preventDefault();
      confirmThenPost(confirmLink);
    }
  });

  // A delete behind a confirmation page (a watch): the confirm dialog asks instead, then the
  // same form the page would have posted is sent, and the server answers with the page to go back to.
  function confirmThenPost(link) {
    const dialog = document.getElementById("confirm-dialog");
    dialog.querySelector("h2").textContent = link.dataset.heading;
    dialog.querySelector("[data-confirm]").textContent = link.dataset.button;
    dialog.querySelector(".confirm-text").textContent = link.dataset.text;
    dialog.querySelector("[data-confirm]").onclick = function () {
      dialog.close();
      const form = document.createElement("form");
      form.method = "post";
      form.action = link.dataset.action;
      [["csrf", csrfToken()], ["return_to", link.dataset.return || ""]].forEach(function (pair) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = pair[0];
        input.value = pair[1];
        form.append(input);
      });
      document.body.append(form);
      form.submit();
    };
    dialog.showModal();
  }

  function askThenRemove(container, action, returnTo, message) {
    const dialog = document.getElementById("confirm-dialog");
    dialog.querySelector("h2").textContent = "Remove it and its note?";
    dialog.querySelector("[data-confirm]").textContent = "Remove";
    dialog.querySelector(".confirm-text").textContent = message;
    const remove = function () {
      post(action + "/remove", { return_to: returnTo || "" }, { title: titleOf(container), what: "Remove" }).then(function (result) {
        if (!result.ok) { failure(result, remove, SAVE_FAILED); return; }
        if (result.queued) {
          keptOffline(container);
          if (!removeCardIfOffList(container, { inLibrary: false })) applyState(container, { favorite: false, watched: false });
          return;
        }
        say(titleOf(container) + ": removed from My Lists, with its note.");
        // The film is out of the lists: off a list page, or shown unsaved where it stays (Movies, its page).
        if (!removeCardIfOffList(container, result.json)) applyState(container, result.json);
      }, function () { showRetry(FETCH_FAILED, remove); });
    };
    dialog.querySelector("[data-confirm]").onclick = function () { dialog.close(); remove(); };
    dialog.showModal();
  }

  // Links that open a dialog act as buttons once this script runs: announced as buttons, and Space presses them.
  document.querySelectorAll(".js-remove, .js-edit-note, .js-confirm").forEach(function (link) { link.setAttribute("role", "button"); });
  document.addEventListener("keydown", function (event) {
    const link = event.target;
    if (event.key !== " " || !(link instanceof HTMLAnchorElement) || link.getAttribute("role") !== "button") return;
    event.preventDefault();
    link.click();
  });

  function confirmRemove(link) {
    const container = cardOrDetail(link);
    const isShow = link.dataset.kind === "show";
    const title = container ? container.dataset.title : "this title";
    const dialog = document.getElementById("confirm-dialog");
    dialog.querySelector("h2").textContent = isShow ? "Delete this TV show?" : "Remove from My Lists?";
    dialog.querySelector("[data-confirm]").textContent = isShow ? "Delete" : "Remove";
    // The link carries the server's words (`RemovalText`); a link drawn without them says the least.
    dialog.querySelector(".confirm-text").textContent = link.dataset.text
      || (isShow ? "“" + title + "” will be removed from your TV Favorites." : "“" + title + "” will be removed from My Lists.");
    dialog.querySelector("[data-confirm]").onclick = function () {
      dialog.close();
      doRemove(link, container);
    };
    dialog.showModal();
  }

  function doRemove(link, container) {
    const isShow = link.dataset.kind === "show";
    const retry = function () { doRemove(link, container); };
    post(link.dataset.action, { return_to: link.dataset.return || "" }, { title: titleOf(container), what: isShow ? "Delete" : "Remove" })
      .then(function (result) {
      if (!result.ok) {
        failure(result, retry, isShow ? SAVE_SHOW_FAILED : SAVE_FAILED);
        return;
      }
      const onList = location.pathname === "/library" || location.pathname === "/shows/favorites";
      if (result.queued) keptOffline(container);
      else say(titleOf(container) + (isShow ? ": deleted from TV Favorites." : ": removed from My Lists."));
      if (container && container.classList.contains("card") && onList) dropCard(container);
      else if (isShow) {
        // The Favorite button takes the Delete link's place, and its focus.
        const form = showFavoriteForm(link);
        link.replaceWith(form);
        form.querySelector("button").focus();
      }
      else if (container && container.classList.contains("card")) dropCard(container);
      else if (result.queued) applyState(container, { favorite: false, watched: false });
      else { sayAfterLoad(titleOf(container) + ": removed from My Lists."); location.reload(); }
    }, function () { showRetry(FETCH_FAILED, retry); });
  }

  document.addEventListener("input", function (event) {
    const dialog = event.target.closest && event.target.closest("dialog");
    if (dialog && event.target.tagName === "TEXTAREA") updateCounter(dialog);
  });

  // Tab and Shift+Tab go round inside an open dialog rather than leaving it for the browser's own
  // controls; Escape closes it (the browser's) and focus goes back to the control that opened it.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Tab") return;
    const dialog = document.querySelector("dialog[open]");
    if (!dialog) return;
    const items = Array.prototype.filter.call(
      dialog.querySelectorAll("a[href], button, input, textarea, select, [tabindex]:not([tabindex='-1'])"),
      function (item) { return !item.disabled && item.type !== "hidden" && item.getClientRects().length > 0; });
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    const at = document.activeElement;
    if (!dialog.contains(at) || (event.shiftKey ? at === first : at === last)) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  });

  // The year picker loads the chosen year when it is picked with a pointer. From the keyboard,
  // arrow keys only move through the years (WCAG 3.2.2: no change of context on input); Enter or
  // the Show button loads the year.
  let keyedSelect = null;
  document.addEventListener("keydown", function (event) {
    const select = event.target;
    if (!(select instanceof HTMLSelectElement) || !select.classList.contains("js-autosubmit")) return;
    keyedSelect = select;
    if (event.key === "Enter") { event.preventDefault(); select.form.submit(); }
  });
  document.addEventListener("pointerdown", function () { keyedSelect = null; });
  document.addEventListener("change", function (event) {
    const select = event.target;
    if (!select.classList || !select.classList.contains("js-autosubmit")) return;
    if (keyedSelect === select) return;
    select.form.submit();
  });

  // A GET form marked data-clean-query (My Lists' sort and filter) sends only what was chosen: empty
  // fields and fields at their data-default stay out of the address. They are disabled while the form
  // is sent and enabled again at once, so the page looks the same when the browser goes back to it.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !form.hasAttribute("data-clean-query")) return;
    const left = Array.prototype.filter.call(form.elements, function (field) {
      if (!field.name || field.disabled || typeof field.value !== "string") return false;
      const value = field.value.trim();
      return value === "" || (field.dataset.default !== undefined && value === field.dataset.default);
    });
    left.forEach(function (field) { field.disabled = true; });
    setTimeout(function () { left.forEach(function (field) { field.disabled = false; }); }, 0);
  });

  // A table wider than the screen scrolls sideways in its .table-wrap, which then says so (app.css
  // writes "Scroll sideways for more" above the table; the edge shadows show it without JavaScript).
  function markScrollingTables() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      wrap.classList.toggle("is-scrollable", wrap.scrollWidth > wrap.clientWidth + 1);
    });
  }
  markScrollingTables();
  window.addEventListener("resize", markScrollingTables);

  // Moments (`<time data-local>`) come written in UTC ("29 November 2026, 14:47 UTC"); show them in
  // this browser's time zone in the same style, the pages' one: "29 November 2026, 14:47".
  const localMoment = new Intl.DateTimeFormat("en-GB", {
    day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  });
  function momentText(date) {
    const part = {};
    localMoment.formatToParts(date).forEach(function (p) { part[p.type] = p.value; });
    return part.day + " " + part.month + " " + part.year + ", " + part.hour + ":" + part.minute;
  }
  document.querySelectorAll("time[data-local]").forEach(function (time) {
    const date = new Date(time.getAttribute("datetime"));
    if (!isNaN(date)) time.textContent = momentText(date);
  });

  // A date field is drawn by the browser in its own locale's form (11/29/2026 in en-US): the day it
  // holds is said beside it in the pages' style, "Sunday 29 November 2026".
  const dayStyle = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  function echoDay(input) {
    let echo = input.nextElementSibling;
    if (!echo || !echo.classList.contains("date-echo")) {
      echo = document.createElement("span");
      echo.className = "date-echo muted";
      echo.setAttribute("aria-hidden", "true");
      input.after(echo);
    }
    const date = input.value ? new Date(input.value + "T12:00:00Z") : null;
    echo.textContent = date && !isNaN(date) ? dayStyle.format(date).replace(",", "") : "";
  }
  document.addEventListener("input", function (event) {
    if (event.target instanceof HTMLInputElement && event.target.type === "date") echoDay(event.target);
  });

  // A watch's day defaults to today on this device's calendar (the server only knows UTC's).
  document.querySelectorAll("input[type=date][data-today]").forEach(function (input) {
    const now = new Date();
    const today = new Date(now.getTime() - now.getTimezoneOffset() * 60000).toISOString().slice(0, 10);
    if (input.value && input.value !== today && input.defaultValue === input.value) input.value = today;
  });
  document.querySelectorAll("input[type=date]").forEach(echoDay);

  // A share link is printed as a path; show the whole address, ready to copy.
  document.querySelectorAll("a[data-absolute]").forEach(function (link) {
    link.textContent = link.href;
  });
  // An import under way: its bar, counts and estimate follow the server every two seconds (the
  // page shows the same on reload without JavaScript). When it ends, the page is loaded again
  // for the rows that need a match. Screen readers hear the state only when it changes.
  const progress = document.getElementById("import-progress");
  if (progress && progress.dataset.active === "1") {
    const bar = document.getElementById("import-bar");
    let lastState = null;
    const poll = function () {
      fetch(progress.dataset.progressUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (job) {
          // A failed answer (a restart, a deploy) is asked again a little later.
          if (!job) { window.setTimeout(poll, 5000); return; }
          bar.value = Math.min(100, job.percent);
          bar.textContent = bar.value + " %";
          ["percent", "processed", "total", "landed", "queued", "failed", "skipped"].forEach(function (name) {
            const field = progress.querySelector('[data-field="' + name + '"]');
            if (field) field.textContent = String(job[name]);
          });
          progress.querySelector('[data-field="estimate"]').textContent = job.estimate ? ", " + job.estimate : "";
          progress.querySelector('[data-field="message"]').textContent = job.message || "";
          if (job.stateText !== lastState) {
            progress.querySelector('[data-field="stateText"]').textContent = job.stateText;
            lastState = job.stateText;
          }
          if (!job.isActive) { window.location.reload(); return; }
          window.setTimeout(poll, 2000);
        })
        .catch(function () { window.setTimeout(poll, 5000); });
    };
    window.setTimeout(poll, 1000);
  }

  // ---------------------------------------------------------------- offline (see /sw.js)
  // The service worker keeps pages, posters and changes made offline. The page asks it, over a
  // message channel, what waits to sync, and tells it when the library changed.
  const worker = "serviceWorker" in navigator ? navigator.serviceWorker : null;

  function ask(message) {
    if (!worker || !worker.controller) return Promise.resolve(null);
    return new Promise(function (resolve) {
      const channel = new MessageChannel();
      channel.port1.onmessage = function (event) { resolve(event.data); };
      worker.controller.postMessage(message, [channel.port2]);
      window.setTimeout(function () { resolve(null); }, 20000);
    });
  }

  let changedTimer = null;
  function changedSoon() {
    clearTimeout(changedTimer);
    changedTimer = setTimeout(function () { ask({ type: "changed" }); }, 800);
  }

  function hello() {
    ask({ type: "hello", online: navigator.onLine, token: csrfToken() }).then(showQueue);
  }

  function formatted(iso) {
    const date = new Date(iso);
    return isNaN(date) ? "" : momentText(date);
  }

  // Changes kept on this device: a "Waiting to sync" mark on their cards, and a panel that counts
  // them and lists any the server refused (kept until the person dismisses them).
  function showQueue(entries) {
    if (!entries) return;
    document.querySelectorAll(".sync-badge").forEach(function (badge) { badge.remove(); });
    const waiting = entries.filter(function (e) { return e.state === "waiting"; });
    const refused = entries.filter(function (e) { return e.state === "refused"; });
    waiting.forEach(function (entry) {
      const base = entry.url.replace(/\/remove$/, "");
      document.querySelectorAll('form[action="' + base + '"], [data-action="' + entry.url + '"]').forEach(function (element) {
        markWaiting(cardOrDetail(element));
      });
    });
    let panel = document.getElementById("sync-panel");
    if (!waiting.length && !refused.length) { if (panel) panel.remove(); return; }
    if (!panel) {
      panel = document.createElement("section");
      panel.id = "sync-panel";
      panel.className = "sync-panel";
      panel.setAttribute("aria-label", "Changes on this device");
      const main = document.getElementById("main");
      main.insertBefore(panel, main.firstChild);
    }
    panel.textContent = "";
    if (waiting.length) {
      const line = document.createElement("p");
      line.className = "sync-waiting";
      line.textContent = waiting.length + (waiting.length === 1 ? " change is" : " changes are") + " waiting to sync: "
        + waiting.map(function (e) { return (e.title || "A title") + " (" + (e.what || "change") + ")"; }).join(", ") + ".";
      panel.append(line);
    }
    if (refused.length) {
      const heading = document.createElement("h2");
      heading.textContent = refused.length === 1 ? "A change was not applied" : refused.length + " changes were not applied";
      const list = document.createElement("ul");
      refused.forEach(function (entry) {
        const item = document.createElement("li");
        const what = document.createElement("strong");
        what.textContent = (entry.title || "A title") + " — " + (entry.what || "change") + ", made " + formatted(entry.madeAt) + ": ";
        const dismiss = document.createElement("button");
        dismiss.type = "button";
        dismiss.className = "btn";
        dismiss.textContent = "Dismiss";
        dismiss.setAttribute("aria-label", "Dismiss: " + (entry.title || "change"));
        dismiss.addEventListener("click", function () { ask({ type: "dismiss", id: entry.id }).then(showQueue); });
        item.append(what, document.createTextNode(entry.detail + " "), dismiss);
        list.append(item);
      });
      panel.append(heading, list);
    }
  }

  // Without a connection: said at the top of every page, and the queue explains itself.
  function connectivity() {
    let bar = document.getElementById("offline-status");
    if (navigator.onLine) { if (bar) bar.remove(); return; }
    if (bar) return;
    bar = document.createElement("p");
    bar.id = "offline-status";
    bar.className = "offline-status";
    bar.setAttribute("role", "status");
    bar.textContent = "You’re offline. Saved pages still open; changes wait on this device and are sent when the connection returns.";
    const main = document.getElementById("main");
    main.parentNode.insertBefore(bar, main);
  }
  window.addEventListener("offline", connectivity);
  window.addEventListener("online", function () { connectivity(); hello(); });
  connectivity();

  // The offline page lists what this device keeps.
  const savedList = document.getElementById("offline-pages");
  if (savedList) {
    ask({ type: "saved" }).then(function (pages) {
      if (!pages || !pages.length) {
        const empty = document.createElement("li");
        empty.textContent = savedList.dataset.empty;
        savedList.append(empty);
        return;
      }
      pages.forEach(function (page) {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = page.url;
        link.textContent = page.title || page.url;
        const saved = document.createElement("span");
        saved.className = "muted";
        saved.textContent = " · saved " + formatted(page.savedAt);
        item.append(link, saved);
        savedList.append(item);
      });
    });
  }

  // The browser's time zone, for the Calendar's days (a zone set on the account wins on the server).
  // The Calendar drawn in another zone than this browser's is drawn again once, in this one.
  const browserZone = (function () {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { return ""; }
  })();
  if (browserZone && /^[A-Za-z0-9_+\-\/]{1,64}$/.test(browserZone)) {
    const secure = location.protocol === "https:";
    const zoneCookie = (secure ? "__Host-ps_tz" : "ps_tz");
    const kept = document.cookie.split("; ").some(function (pair) { return pair === zoneCookie + "=" + encodeURIComponent(browserZone); });
    if (!kept) {
      document.cookie = zoneCookie + "=" + encodeURIComponent(browserZone) + "; Path=/; Max-Age=31536000; SameSite=Lax" + (secure ? "; Secure" : "");
    }
    const drawn = document.querySelector("[data-calendar-zone][data-zone-from-browser]");
    if (drawn && drawn.getAttribute("data-calendar-zone") !== browserZone && !sessionStorage.getItem("ps-zone-reloaded")) {
      sessionStorage.setItem("ps-zone-reloaded", "1");
      location.reload();
    }
  }

  // "Copy address": the field's text to the clipboard, said in the toast.
  document.addEventListener("click", function (event) {
    const button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
    if (!button) return;
    const field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    const done = function () { say("Address copied."); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
    } else {
      document.execCommand("copy");
      done();
    }
  });

  if (worker) {
    worker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "queue") ask({ type: "queue" }).then(showQueue);
    });
    // A page that loaded without the worker (the first visit) greets it once it takes over.
    worker.addEventListener("controllerchange", hello);
    // After the page has loaded and painted, when the browser is idle: greeting the worker sets off
    // its own work (the queue, the plan), which must not compete with this page's first paint.
    window.addEventListener("load", function () {
      const idle = window.requestIdleCallback ? window.requestIdleCallback.bind(window) : function (work) { return window.setTimeout(work, 0); };
      idle(function () {
        if (worker.controller) hello();
        worker.register("/sw.js").catch(function () { /* no worker: pages still work online */ });
      }, { timeout: 1000 });
    });
  }
})();
