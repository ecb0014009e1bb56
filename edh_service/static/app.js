/* Progressive enhancement for the paste-and-validate page.
 *
 * Without this file the page is a plain form POST rendered by the server (web.py).
 * With it: files are read into the textarea (choose or drop), the form posts JSON to
 * /api/v1/validate and the verdict is rendered without a reload, and clicking a
 * violation highlights its lines. Every piece of data goes into the page through
 * textContent or attributes, never innerHTML: names and lines are the user's text.
 */
"use strict";

(function () {
  const COLOR_NAMES = { W: "White", U: "Blue", B: "Black", R: "Red", G: "Green", C: "Colorless" };

  const form = document.getElementById("deck-form");
  const textarea = document.getElementById("decklist");
  const fileInput = document.getElementById("deckfile");
  const dropZone = document.getElementById("drop-zone");
  const status = document.getElementById("status");
  const result = document.getElementById("result");
  const submit = document.getElementById("submit");
  if (!form || !textarea || !result) return;

  /* Build an element: attrs are attributes (or "text" for textContent), kids are nodes or strings. */
  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      node.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
    }
    return node;
  }

  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  /* Same URL as web.scryfall_url: an exact-name Scryfall search, a link only. */
  function scryfallUrl(name) {
    return "https://scryfall.com/search?q=" + encodeURIComponent(`!"${name}"`);
  }

  function cardLink(name) {
    return el("a", { class: "card", href: scryfallUrl(name), rel: "noopener noreferrer", target: "_blank" },
      name, el("span", { class: "visually-hidden", text: " (opens Scryfall in a new tab)" }));
  }

  function pip(letter) {
    const label = COLOR_NAMES[letter] || letter;
    return el("span", { class: `pip pip-${letter}`, title: label },
      el("span", { "aria-hidden": "true", text: letter }),
      el("span", { class: "visually-hidden", text: label }));
  }

  /* Comma-separated card links, as the template renders them. */
  function cardList(names) {
    const out = [];
    names.forEach((name, i) => { if (i) out.push(", "); out.push(cardLink(name)); });
    return out;
  }

  /* Names as typed (unknown cards): quoted text, no link, since there is no card. */
  function typedList(names) {
    const out = [];
    names.forEach((name, i) => { if (i) out.push(", "); out.push(el("q", { class: "typed", text: name })); });
    return out;
  }

  /* ---- reading files into the textarea (FileReader, nothing leaves the browser) ---- */

  /* UTF-16 by its byte-order mark, else UTF-8, else Windows-1252 as older tools write
   * (as the server and the CLI read files: service.decode_file). */
  function decodeFile(buffer) {
    const head = new Uint8Array(buffer, 0, Math.min(2, buffer.byteLength));
    if (head[0] === 0xFF && head[1] === 0xFE) return new TextDecoder("utf-16le").decode(buffer);
    if (head[0] === 0xFE && head[1] === 0xFF) return new TextDecoder("utf-16be").decode(buffer);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
    } catch (_) {
      return new TextDecoder("windows-1252").decode(buffer);
    }
  }

  function readFile(file) {
    if (!file) return;
    const reader = new FileReader();
    reader.addEventListener("load", () => {
      // Strip a UTF-8 byte-order mark, as the server does for uploads.
      textarea.value = decodeFile(reader.result).replace(/^\uFEFF/, "");
      if (fileInput) fileInput.value = "";  // the text is in the textarea now; don't post it twice
      status.textContent = `Loaded ${file.name} (${plural(textarea.value.split(/\r\n|\r|\n/).length, "line")}).`;
      textarea.focus();
    });
    reader.addEventListener("error", () => { status.textContent = `Could not read ${file.name}.`; });
    reader.readAsArrayBuffer(file);
  }

  if (fileInput) fileInput.addEventListener("change", () => readFile(fileInput.files[0]));
  if (dropZone) {
    dropZone.addEventListener("dragover", (event) => { event.preventDefault(); dropZone.classList.add("dragging"); });
    dropZone.addEventListener("dragleave", () => dropZone.classList.remove("dragging"));
    dropZone.addEventListener("drop", (event) => {
      event.preventDefault();
      dropZone.classList.remove("dragging");
      readFile(event.dataTransfer && event.dataTransfer.files[0]);
    });
  }
  for (const node of document.querySelectorAll(".js-only")) node.hidden = false;

  /* ---- highlighting a violation's lines ---- */

  function highlight(violation, focusLine) {
    for (const node of result.querySelectorAll(".line.highlight, .violation.active")) {
      node.classList.remove("highlight", "active");
    }
    violation.classList.add("active");
    const numbers = (violation.dataset.lines || "").split(" ").filter(Boolean);
    const lines = numbers.map((n) => document.getElementById(`L${n}`)).filter(Boolean);
    lines.forEach((line) => line.classList.add("highlight"));
    const target = (focusLine && document.getElementById(`L${focusLine}`)) || lines[0];
    if (target) {
      target.setAttribute("tabindex", "-1");
      target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    }
  }

  result.addEventListener("click", (event) => {
    const link = event.target.closest(".line-link");
    if (!link) return;
    event.preventDefault();
    highlight(link.closest(".violation"), link.getAttribute("href").slice(2));
  });

  /* ---- rendering a validate response ---- */

  function renderFacts(report) {
    const commanders = report.commanders.length
      ? el("ul", { class: "inline-list" }, report.commanders.map((name) => el("li", {}, cardLink(name))))
      : "none found";
    const identity = report.color_identity.length ? report.color_identity.map(pip) : [pip("C")];
    const fact = (label, ...value) => el("div", {}, el("dt", { text: label }), el("dd", {}, ...value));
    return el("dl", { class: "facts" },
      fact(report.commanders.length === 1 ? "Commander" : "Commanders", commanders),
      el("div", {}, el("dt", { text: "Color identity" }), el("dd", { class: "pips" }, identity)),
      report.companion ? fact("Companion", cardLink(report.companion)) : null,
      fact("Cards", el("span", { class: report.card_count === 100 ? "count-ok" : "count-bad", text: String(report.card_count) }), " of 100"),
      // The API's `format` is the game format; the syntax the list was read as is decklist_format.
      report.decklist_format ? fact("Read as", report.decklist_format) : null);
  }

  function renderViolation(v) {
    const lines = v.lines || [];
    const lineLinks = [];
    lines.forEach((n, i) => {
      if (i) lineLinks.push(" ");
      lineLinks.push(el("a", { class: "line-link", href: `#L${n}`, "aria-label": `Line ${n}`, text: String(n) }));
    });
    const cards = v.cards || [];
    const suggestions = v.suggestions || [];
    return el("li", { class: `violation severity-${v.severity}`, "data-code": v.code, "data-lines": lines.join(" ") },
      el("p", { class: "violation-head" },
        el("span", { class: `badge badge-${v.severity}`, text: v.severity === "error" ? "Error" : "Warning" }), " ",
        el("code", { class: "code", text: v.code }),
        v.rule ? [" ", el("span", { class: "rule", text: `rule ${v.rule}` })] : null),
      el("p", { class: "message", text: v.message }),
      cards.length ? el("p", { class: "cards" }, el("span", { class: "label", text: cards.length === 1 ? "Card:" : "Cards:" }), " ",
        el("span", { class: "inline-list" }, v.code === "unknown_card" ? typedList(cards) : cardList(cards))) : null,
      lines.length ? el("p", { class: "lines" }, el("span", { class: "label", text: lines.length === 1 ? "Line:" : "Lines:" }), " ", lineLinks) : null,
      suggestions.length ? el("p", { class: "suggestions" }, el("span", { class: "label", text: "Did you mean:" }), " ", cardList(suggestions)) : null);
  }

  /* line number -> [worst severity, codes], as web.line_marks computes it. */
  function lineMarks(violations) {
    const marks = new Map();
    for (const v of violations) {
      for (const n of v.lines || []) {
        const mark = marks.get(n) || { severity: "warning", codes: [] };
        if (!mark.codes.includes(v.code)) mark.codes.push(v.code);
        if (v.severity === "error") mark.severity = "error";
        marks.set(n, mark);
      }
    }
    return marks;
  }

  function renderListing(text, violations) {
    const marks = lineMarks(violations);
    // Number lines as the parser does (CR, LF, CRLF; web.display_lines), minus a final empty one.
    const lines = text.split(/\r\n|\r|\n/);
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    return el("ol", { class: "listing", "aria-labelledby": "listing-heading" }, lines.map((content, i) => {
      const n = i + 1;
      const mark = marks.get(n);
      return el("li", { id: `L${n}`, class: mark ? `line flagged flagged-${mark.severity}` : "line", "data-line": n },
        el("span", { class: "ln" }, el("span", { class: "visually-hidden", text: "Line " }), String(n)),
        el("span", { class: "text", text: content }),
        mark ? el("span", { class: "mark" }, el("span", { class: "visually-hidden", text: `${mark.severity}: ` }), mark.codes.join(", ")) : null);
    }));
  }

  function summary(report) {
    const errors = report.violations.filter((v) => v.severity === "error").length;
    const warnings = report.violations.length - errors;
    return [errors, warnings, `${report.valid ? "Legal" : "Not legal"}: ${plural(errors, "error")}, ${plural(warnings, "warning")}.`];
  }

  function renderReport(report, text) {
    const [errors, warnings, line] = summary(report);
    const problems = report.violations.length
      ? `Problems (${plural(errors, "error")}, ${plural(warnings, "warning")})`
      : "No problems found";
    result.replaceChildren(
      el("h2", { id: "result-heading", class: `verdict ${report.valid ? "verdict-legal" : "verdict-illegal"}`, text: report.valid ? "Legal" : "Not legal" }),
      renderFacts(report),
      el("h3", { id: "problems-heading", text: problems }),
      report.violations.length ? el("ol", { class: "violations", "aria-labelledby": "problems-heading" }, report.violations.map(renderViolation)) : null,
      el("h3", { id: "listing-heading", text: "Your list" }),
      el("p", { class: "hint", text: "Lines with a problem are marked." }),
      renderListing(text, report.violations));
    document.title = `${report.valid ? "Legal" : "Not legal"} · Commander deck validator`;
    return line;
  }

  function renderError(message) {
    result.replaceChildren(
      el("h2", { id: "result-heading", text: "Could not validate" }),
      el("p", { class: "alert", role: "alert", text: message }));
    document.title = "Error · Commander deck validator";
    return message;
  }

  /* The API's field names as the form labels them (web.FIELD_LABELS). */
  const FIELD_LABELS = { decklist: "Decklist", decklist_format: "List format", commanders: "Commander", companion: "Companion" };

  /* Every leaf message of marshmallow's nested {field: [messages]} errors. */
  function leaves(value) {
    if (Array.isArray(value)) return value.flatMap(leaves);
    if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
    return [String(value)];
  }

  /* The API's error envelope {code, status, message, errors} as one sentence. */
  function errorMessage(response, body) {
    let message = (body && body.message) || `The server answered ${response.status}.`;
    if (body && body.errors && typeof body.errors === "object") {
      const details = Object.entries(body.errors).map(([field, value]) => `${FIELD_LABELS[field] || field}: ${leaves(value).join(" ")}`);
      if (details.length) message += " " + details.join(" ");
    }
    const retry = response.headers.get("Retry-After");
    // 503: card data not loaded yet; 429: over this client's request budget.
    if ((response.status === 503 || response.status === 429) && retry) message += ` Try again in ${retry} seconds.`;
    return message;
  }

  function requestBody() {
    const body = { decklist: textarea.value };
    const commanders = Array.from(form.querySelectorAll('input[name="commanders"]'))
      .map((input) => input.value.trim()).filter(Boolean);
    if (commanders.length) body.commanders = commanders;
    const companion = form.elements.companion && form.elements.companion.value.trim();
    if (companion) body.companion = companion;
    const format = form.elements.format && form.elements.format.value;
    if (format) body.decklist_format = format;
    return body;
  }

  async function validate() {
    const text = textarea.value;
    const response = await fetch(form.dataset.api, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(requestBody()),
      credentials: "same-origin",
    });
    let body = null;
    try { body = await response.json(); } catch (_) { /* not JSON: fall through to the status */ }
    if (response.ok && body) return renderReport(body, text);
    return renderError(errorMessage(response, body));
  }

  form.addEventListener("submit", (event) => {
    if (!window.fetch) return;  // very old browser: the plain form POST still works
    event.preventDefault();
    if (!textarea.value.trim()) {
      result.hidden = false;
      status.textContent = renderError("Paste a decklist or choose a file first.");
      textarea.focus();
      return;
    }
    submit.disabled = true;
    result.setAttribute("aria-busy", "true");
    status.textContent = "Validating…";
    validate()
      .catch(() => renderError("The validator could not be reached. Check your connection and try again."))
      .then((line) => {
        status.textContent = line;
        result.hidden = false;
        result.removeAttribute("aria-busy");
        submit.disabled = false;
        const heading = document.getElementById("result-heading");
        if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: true }); }
        result.scrollIntoView({ block: "start" });
      });
  });
})();
