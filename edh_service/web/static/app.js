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
  /* card_data.printed_names.LANGUAGE_NAMES */
  const LANGUAGE_NAMES = {
    es: "Spanish", fr: "French", de: "German", it: "Italian", pt: "Portuguese", ja: "Japanese",
    ko: "Korean", ru: "Russian", zhs: "Simplified Chinese", zht: "Traditional Chinese", he: "Hebrew",
    la: "Latin", grc: "Ancient Greek", ar: "Arabic", sa: "Sanskrit", ph: "Phyrexian",
  };
  /* The codes whose cards are names as written (no card to link to). */
  const TYPED_CODES = ["unknown_card", "ambiguous_card"];
  /* validator.brackets.BRACKET_NAMES */
  const BRACKET_NAMES = { 1: "Exhibition", 2: "Core", 3: "Upgraded", 4: "Optimized", 5: "cEDH" };
  /* edh_service.house_rules.TEXT_KEYS: the "your table's rules" box's line keys */
  const HOUSE_KEYS = { name: "name", banned: "banned", "banned as commander": "banned_as_commander",
    unbanned: "unbanned", "max bracket": "max_bracket" };

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

  /* Same query as schemas.scryfall_search_url: an exact-name Scryfall search, a link only;
   * a name with a double quote (which would end `!"..."`) as an anchored regex on the name. */
  function scryfallUrl(name) {
    const query = name.includes('"') ? `name:/^${name.replace(/[\\^$.|?*+()[\]{}/]/g, "\\$&")}$/` : `!"${name}"`;
    return "https://scryfall.com/search?q=" + encodeURIComponent(query);
  }

  /* As web.isolate_names: each quoted name holding bidirectional controls isolated (FSI, the
   * name, a closer for each embedding or isolate it opened, PDI), so an override in a typed
   * name cannot reverse the rest of the message. */
  const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  function isolateNames(message, names) {
    for (const name of names) {
      if (!BIDI_CONTROLS.test(name)) continue;
      const closers = "\u202c".repeat((name.match(/[\u202a\u202b\u202d\u202e]/g) || []).length) +
        "\u2069".repeat((name.match(/[\u2066-\u2068]/g) || []).length);
      message = message.split(name).join(`\u2068${name}${closers}\u2069`);
    }
    return message;
  }

  /* Canonical name -> preview image, from the last response's overview block. */
  let images = {};
  const PREVIEW = { width: 244, height: 340, host: "https://cards.scryfall.io/" };  // charts.py

  function cardLink(name) {
    const link = el("a", { class: "card", href: scryfallUrl(name), rel: "noopener noreferrer", target: "_blank" },
      name, el("span", { class: "visually-hidden", text: " (opens Scryfall in a new tab)" }));
    const image = Object.prototype.hasOwnProperty.call(images, name) ? images[name] : "";
    if (!image || !image.startsWith(PREVIEW.host)) return link;
    // As templates/_preview.html: shown on hover or focus by CSS, hidden from screen readers.
    return el("span", { class: "card-ref" }, link,
      el("span", { class: "preview", "aria-hidden": "true" },
        el("img", { src: image, alt: name, width: PREVIEW.width, height: PREVIEW.height, loading: "lazy", decoding: "async" })));
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
    names.forEach((name, i) => { if (i) out.push(", "); out.push(el("q", { class: "typed" }, el("bdi", { text: name }))); });
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
      status.textContent = `Loaded ${file.name} (${plural(textarea.value.split(/\r\r\n|\r\n|\r|\n/).length, "line")}).`;
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

  /* A game format's name, deck size and role, from the form's own selector (the template
     writes validator.formats' table into its options: nothing to keep in step here). */
  function gameFormat(key) {
    const option = form.querySelector(`select[name="game_format"] option[value="${key}"]`);
    const data = option ? option.dataset : {};
    return { key, name: data.name || key, deckSize: Number(data.deckSize || 100), role: data.role || "commander" };
  }

  /* ---- house rules: the "your table's rules" box, and the verdict's words ---- */

  class HouseRulesInputError extends Error {}

  /* As house_rules.read_text_form: `key: value` lines (any case, _ or - for spaces; a list's key
   * may repeat), names split by commas, or by semicolons on a line holding one; blank lines and
   * # comments skipped; a line it cannot read is named. The API's schema checks the rest. */
  function parseHouseRules(text) {
    const rules = {};
    text.split(/\r\n|\r|\n/).forEach((raw, index) => {
      const line = raw.trim();
      if (!line || line.startsWith("#")) return;
      const colon = line.indexOf(":");
      const key = colon < 0 ? "" : line.slice(0, colon).trim().toLowerCase().replace(/[\s_-]+/g, " ");
      const field = Object.prototype.hasOwnProperty.call(HOUSE_KEYS, key) ? HOUSE_KEYS[key] : null;
      if (!field) {
        throw new HouseRulesInputError(`Line ${index + 1} of your table's rules is not one of name:, banned:, banned as ` +
          "commander:, unbanned: or max bracket: followed by its value.");
      }
      const value = line.slice(colon + 1).trim();
      if (field === "max_bracket") rules[field] = /^[0-9]+$/.test(value) ? (value.length < 10 ? Number(value) : 1e10) : value;
      else if (field === "name") rules[field] = value;
      else {
        const separator = value.includes(";") ? ";" : ",";
        rules[field] = (rules[field] || []).concat(value.split(separator).map((name) => name.trim()).filter(Boolean));
      }
    });
    return rules;
  }

  /* As validator.formats.HouseRules.rules: "Thursday at the store's rules", or "the house rules". */
  function houseRulesWords(name) {
    if (!name) return "the house rules";
    return name.endsWith("s") ? `${name}' rules` : `${name}'s rules`;
  }

  /* "Legal", "Not legal", or "Not legal under Thursday at the store's rules" (web.verdict). */
  function verdict(report) {
    const said = report.valid ? "Legal" : "Not legal";
    return report.house_rules ? `${said} under ${houseRulesWords(report.house_rules.name)}` : said;
  }

  function houseRulesFact(h) {
    if (!h) return null;
    const counts = `${h.banned} banned, ${h.banned_as_commander} banned as commander, ${h.unbanned} unbanned` +
      (h.max_bracket ? `, max bracket ${h.max_bracket}` : "");
    return el("div", { class: "house-rules-fact" }, el("dt", { text: "House rules" }),
      el("dd", { id: "house-rules-judged", "data-profile": h.profile || "",
        text: `${h.name || "Your table's rules"}${h.profile ? ` (profile ${h.profile})` : ""}: ${counts}` }));
  }

  function renderFacts(report) {
    const fmt = gameFormat(report.format);
    const commanders = report.commanders.length
      ? el("ul", { class: "inline-list" }, report.commanders.map((name) => el("li", {}, cardLink(name))))
      : "none found";
    const identity = report.color_identity.length ? report.color_identity.map(pip) : [pip("C")];
    const fact = (label, ...value) => el("div", {}, el("dt", { text: label }), el("dd", {}, ...value));
    const role = fmt.role.charAt(0).toUpperCase() + fmt.role.slice(1);
    const spells = report.signature_spells || [];
    return el("dl", { class: "facts" },
      el("div", {}, el("dt", { text: "Format" }), el("dd", { id: "judged-format", "data-format": fmt.key, text: fmt.name })),
      fact(report.commanders.length === 1 ? role : `${role}s`, commanders),
      el("div", {}, el("dt", { text: "Color identity" }), el("dd", { class: "pips" }, identity)),
      spells.length ? el("div", { class: "signature-spells" }, el("dt", { text: spells.length === 1 ? "Signature spell" : "Signature spells" }),
        el("dd", {}, el("ul", { class: "inline-list" }, spells.map((name) => el("li", {}, cardLink(name)))))) : null,
      report.companion ? fact("Companion", cardLink(report.companion)) : null,
      fact("Cards", el("span", { class: report.card_count === fmt.deckSize ? "count-ok" : "count-bad", text: String(report.card_count) }), ` of ${fmt.deckSize}`),
      // The API's `format` is the game format; the syntax the list was read as is decklist_format.
      report.decklist_format ? fact("Read as", report.decklist_format) : null,
      houseRulesFact(report.house_rules));
  }

  /* ---- every format's verdict (include: ["formats"], as the template renders it) ---- */

  // Each status's own mark (app.css), words and style: the data's "unknown" never reads as legal.
  const FORMAT_STATUSES = {
    legal: { css: "format-legal", words: "legal" },
    not_legal: { css: "format-illegal", words: "not legal" },
    unknown: { css: "format-unknown", words: "unknown (the card data can't say)" },
  };

  function renderFormats(formats) {
    if (!formats) return [];
    return [
      el("h3", { id: "formats-heading", text: "In every format" }),
      el("ul", { class: "format-verdicts", "aria-labelledby": "formats-heading" }, Object.entries(formats).map(([key, verdict]) => {
        const shown = FORMAT_STATUSES[verdict.status];
        return el("li", { class: `format-verdict ${shown.css}`, "data-format": key, "data-status": verdict.status },
          el("strong", { text: gameFormat(key).name }), `: ${shown.words}`,
          ...(verdict.codes.length ? [" (", el("span", { class: "codes", text: verdict.codes.join(", ") }), ")"] : []));
      })),
    ];
  }

  /* ---- the Commander Brackets block (as the template renders it) ---- */

  function renderBracketMinimum(bracket) {
    const declared = bracket.declared
      ? `; checked against bracket ${bracket.declared} (${BRACKET_NAMES[bracket.declared]})` : "";
    return el("p", { id: "bracket-minimum", class: "bracket-minimum", "data-minimum": bracket.minimum },
      "Minimum Commander Bracket: ", el("strong", { text: `${bracket.minimum} (${BRACKET_NAMES[bracket.minimum]})` }),
      declared);
  }

  function bracketList(label, names, kind) {
    let value;
    if (names === null || names === undefined) {
      value = el("span", { class: "not-checked", text: "Not checked: no data (the list is not loaded)." });
    } else if (!names.length) {
      value = "none";
    } else if (kind === "two_card_combos") {
      value = el("ul", { class: "combos" }, names.map((pair) => el("li", {}, cardLink(pair[0]), " + ", cardLink(pair[1]))));
    } else {
      value = el("span", { class: "inline-list" }, cardList(names));
    }
    return el("div", { class: "bracket-list", "data-list": kind }, el("dt", { text: label }), el("dd", {}, value));
  }

  function renderBracket(bracket) {
    return [
      el("h3", { id: "bracket-heading", text: `Why bracket ${bracket.minimum}` }),
      el("ul", { class: "bracket-reasons", "aria-labelledby": "bracket-heading" }, bracket.reasons.map((reason) => {
        const unchecked = reason.bracket === null;
        return el("li", { class: unchecked ? "reason not-checked" : "reason", "data-bracket": unchecked ? "" : reason.bracket },
          unchecked ? [el("strong", { text: "Not checked: no data." }), " "] : null, reason.message);
      })),
      el("dl", { class: "bracket-lists" },
        bracketList("Game Changers", bracket.game_changers, "game_changers"),
        bracketList("Mass land denial", bracket.mass_land_denial, "mass_land_denial"),
        bracketList("Extra turns", bracket.extra_turns, "extra_turns"),
        bracketList("Two-card combos", bracket.two_card_combos, "two_card_combos")),
    ];
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
      el("p", { class: "message", text: isolateNames(v.message, v.cards || []) }),
      cards.length ? el("p", { class: "cards" }, el("span", { class: "label", text: cards.length === 1 ? "Card:" : "Cards:" }), " ",
        el("span", { class: "inline-list" }, TYPED_CODES.includes(v.code) ? typedList(cards) : cardList(cards))) : null,
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

  /* line number -> [[English name, language name], ...], as web.listing computes it. */
  function lineTranslations(translated) {
    const english = new Map();
    for (const t of translated || []) {
      for (const n of t.lines) {
        if (!english.has(n)) english.set(n, []);
        english.get(n).push([t.card, LANGUAGE_NAMES[t.lang] || t.lang]);
      }
    }
    return english;
  }

  function renderListing(text, violations, translated) {
    const marks = lineMarks(violations);
    const english = lineTranslations(translated);
    // Number lines as the parser does (CR, LF, CRLF; web.display_lines), minus a final empty one.
    const lines = text.split(/\r\r\n|\r\n|\r|\n/);
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    return el("ol", { class: "listing", "aria-labelledby": "listing-heading" }, lines.map((content, i) => {
      const n = i + 1;
      const mark = marks.get(n);
      return el("li", { id: `L${n}`, class: mark ? `line flagged flagged-${mark.severity}` : "line", "data-line": n },
        el("span", { class: "ln" }, el("span", { class: "visually-hidden", text: "Line " }), String(n)),
        el("span", { class: "text", text: content }),
        (english.get(n) || []).map(([card, language]) => el("span", { class: "translated" },
          el("span", { class: "visually-hidden", text: `read in ${language} as ` }),
          el("span", { class: "english", lang: "en", text: card }), " ",
          el("span", { class: "lang", "aria-hidden": "true", text: language }))),
        mark ? el("span", { class: "mark" }, el("span", { class: "visually-hidden", text: `${mark.severity}: ` }), mark.codes.join(", ")) : null);
    }));
  }

  function summary(report) {
    const errors = report.violations.filter((v) => v.severity === "error").length;
    const warnings = report.violations.length - errors;
    return [errors, warnings, `${verdict(report)}: ${plural(errors, "error")}, ${plural(warnings, "warning")}.`];
  }

  /* ---- the deck overview (as charts.py computes it and _overview.html draws it) ---- */

  const SVG = "http://www.w3.org/2000/svg";
  const CHART_WIDTH = 320;
  const CURVE_BUCKETS = ["0", "1", "2", "3", "4", "5", "6", "7+"];
  const COLORS = ["W", "U", "B", "R", "G", "C"];
  const round = (value) => Math.floor(value + 0.5);  // half up, as charts._round
  const share = (part, whole) => (whole ? part / whole : 0);

  function svg(tag, attrs, ...kids) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value; else node.setAttribute(key, String(value));
    }
    node.append(...kids);
    return node;
  }

  function curveChart(curve) {
    const tallest = Math.max(0, ...CURVE_BUCKETS.map((b) => curve[b] || 0)) || 1;
    const bars = [], labels = [];
    CURVE_BUCKETS.forEach((bucket, i) => {
      const count = curve[bucket] || 0;
      const height = round(count / tallest * 110);
      const middle = i * 40 + 20;
      bars.push([i * 40 + 7, 140 - height, 26, height, "bar bar-curve"]);
      labels.push([middle, 140 - height - 5, String(count), "value", "middle"]);
      labels.push([middle, 158, bucket, "axis", "middle"]);
    });
    return { key: "curve", title: "Mana curve", height: 166, bars, labels,
      description: "Nonland cards by mana value: " + CURVE_BUCKETS.map((b) => `${b}: ${curve[b] || 0}`).join(", ") + ".",
      head: ["Mana value", "Nonland cards"], rows: CURVE_BUCKETS.map((b) => [b, String(curve[b] || 0)]) };
  }

  function colorChart(o) {
    const symbols = COLORS.reduce((sum, c) => sum + (o.cost_symbols[c] || 0), 0);
    const shown = COLORS.filter((c) => o.cost_symbols[c] || o.land_sources[c]);
    // Both bars share one scale: the largest share of either kind spans the 168 units.
    const widest = Math.max(0, ...shown.flatMap((c) => [share(o.cost_symbols[c] || 0, symbols), share(o.land_sources[c] || 0, o.lands)])) || 1;
    const bars = [], labels = [], said = [], rows = [];
    shown.forEach((color, row) => {
      const top = row * 40 + 4, name = COLOR_NAMES[color];
      const cost = o.cost_symbols[color] || 0, lands = o.land_sources[color] || 0;
      const percent = round(share(cost, symbols) * 100);
      const costWidth = round(share(cost, symbols) / widest * 168), landWidth = round(share(lands, o.lands) / widest * 168);
      bars.push([72, top + 2, costWidth, 13, `bar bar-cost color-${color}`]);
      bars.push([72, top + 17, landWidth, 13, `bar bar-land color-${color}`]);
      labels.push([0, top + 21, name, "name", "start"]);
      labels.push([72 + costWidth + 5, top + 13, `${cost} (${percent}%)`, "value", "start"]);
      labels.push([72 + landWidth + 5, top + 28, `${lands} of ${o.lands}`, "value", "start"]);
      said.push(`${name}: ${cost} symbol${cost === 1 ? "" : "s"} (${percent}%), ${lands} of ${o.lands} lands`);
      rows.push([name, `${cost} (${percent}%)`, `${lands} of ${o.lands}`]);
    });
    return { key: "colors", title: "Color balance", height: Math.max(said.length, 1) * 40 + 8, bars, labels,
      description: "Colored mana symbols in costs against lands producing each color: " + (said.join("; ") || "none") + ".",
      head: ["Color", "Symbols in costs", "Lands producing it"], rows };
  }

  function typeChart(types) {
    const entries = Object.entries(types);
    const largest = Math.max(0, ...entries.map(([, n]) => n)) || 1;
    const bars = [], labels = [];
    entries.forEach(([kind, count], row) => {
      const width = round(count / largest * 168);
      bars.push([104, row * 24 + 4, width, 16, "bar bar-type"]);
      labels.push([0, row * 24 + 16, kind, "name", "start"]);
      labels.push([104 + width + 5, row * 24 + 16, String(count), "value", "start"]);
    });
    return { key: "types", title: "Card types", height: Math.max(entries.length, 1) * 24 + 4, bars, labels,
      description: "Cards by type: " + (entries.map(([k, n]) => `${k} ${n}`).join(", ") || "none") + ".",
      head: ["Card type", "Cards"], rows: entries.map(([k, n]) => [k, String(n)]) };
  }

  function renderChart(chart) {
    const id = `chart-${chart.key}`;
    const drawing = svg("svg", { class: "chart-svg", viewBox: `0 0 ${CHART_WIDTH} ${chart.height}`, width: CHART_WIDTH,
      height: chart.height, role: "img", focusable: "false", "aria-labelledby": `${id}-title ${id}-desc` },
    svg("title", { id: `${id}-title`, text: chart.title }),
    svg("desc", { id: `${id}-desc`, text: chart.description }),
    ...chart.bars.map(([x, y, width, height, kind]) => svg("rect", { class: kind, x, y, width, height })),
    ...chart.labels.map(([x, y, text, kind, anchor]) => svg("text", { class: `label-${kind}`, x, y, "text-anchor": anchor, text })));
    return el("figure", { class: `chart chart-${chart.key}`, "data-chart": chart.key },
      el("figcaption", { text: chart.title }),
      drawing,
      chart.key === "colors" ? el("p", { class: "hint legend", text: "Upper bar: the color's share of the colored symbols in costs. Lower bar: lands that can make it in this deck (Command Tower and the like: your commander's colors; a fetch land makes none itself)." }) : null,
      el("details", { class: "chart-table" },
        el("summary", { text: `${chart.title} as a table` }),
        el("table", {},
          el("caption", { class: "visually-hidden", text: chart.title }),
          el("thead", {}, el("tr", {}, chart.head.map((h) => el("th", { scope: "col", text: h })))),
          el("tbody", {}, chart.rows.map(([first, ...cells]) =>
            el("tr", {}, el("th", { scope: "row", text: first }), cells.map((c) => el("td", { text: c }))))))));
  }

  function renderOverview(o) {
    if (!o) return null;
    const groups = Object.entries(o.cards_by_type || {});
    const s = (n) => (n === 1 ? "" : "s");
    return el("section", { id: "overview", class: "overview", "aria-labelledby": "overview-heading" },
      el("h3", { id: "overview-heading", text: "Deck overview" }),
      el("p", { class: "hint overview-summary", text: `${o.cards} card${s(o.cards)} counted (commanders and main deck): ${o.lands} land${s(o.lands)}, ${o.cards - o.lands} other.` }),
      el("div", { class: "charts" }, [curveChart(o.curve), colorChart(o), typeChart(o.types)].map(renderChart)),
      groups.length ? el("details", { class: "deck-cards" },
        el("summary", { text: "Cards by type" }),
        el("div", { class: "type-groups" }, groups.map(([kind, cards]) =>
          el("div", { class: "type-group", "data-type": kind },
            el("h4", { text: `${kind} (${o.types[kind]})` }),
            el("ul", { class: "card-list" }, cards.map((c) =>
              el("li", {}, el("span", { class: "copies", text: String(c.quantity) }), " ", cardLink(c.name)))))))) : null);
  }

  /* Escape hides the preview under the pointer or the focus (WCAG 1.4.13: dismissible). */
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const ref of document.querySelectorAll(".card-ref:hover, .card-ref:focus-within")) ref.classList.add("preview-dismissed");
  });
  document.addEventListener("focusin", (event) => {
    for (const ref of document.querySelectorAll(".card-ref.preview-dismissed")) {
      if (!ref.contains(event.target)) ref.classList.remove("preview-dismissed");
    }
  });
  document.addEventListener("mouseover", (event) => {
    for (const ref of document.querySelectorAll(".card-ref.preview-dismissed")) {
      if (!ref.contains(event.target)) ref.classList.remove("preview-dismissed");
    }
  });

  /* Where a deck given by link came from (the API's `source`), as the page shows it (#deck-source). */
  function renderSource(source) {
    if (!source) return null;
    const label = SITE_LABELS[source.site] || source.site;
    return el("p", { id: "deck-source", class: "deck-source" }, "Read from ",
      el("a", { href: source.url, rel: "noopener noreferrer", target: "_blank" }, source.name || source.url,
        el("span", { class: "visually-hidden", text: ` (opens ${label} in a new tab)` })),
      ` on ${label}, as of `, el("time", { datetime: source.fetched_at, text: source.fetched_at }),
      `: the deck as it was judged${source.declared_bracket ? `, declared bracket ${source.declared_bracket}` : ""}.`);
  }

  function renderReport(report, text) {
    images = (report.overview && report.overview.images) || {};
    const [errors, warnings, line] = summary(report);
    const problems = report.violations.length
      ? `Problems (${plural(errors, "error")}, ${plural(warnings, "warning")})`
      : "No problems found";
    // replaceChildren writes a null as the text "null": leave the absent parts out
    result.replaceChildren(...[
      el("h2", { id: "result-heading", class: `verdict ${report.valid ? "verdict-legal" : "verdict-illegal"}`, text: verdict(report) }),
      report.bracket ? renderBracketMinimum(report.bracket) : null,  // null outside Commander
      renderFacts(report),
      ...renderFormats(report.formats),
      ...(report.bracket ? renderBracket(report.bracket) : []),
      el("h3", { id: "problems-heading", text: problems }),
      report.violations.length ? el("ol", { class: "violations", "aria-labelledby": "problems-heading" }, report.violations.map(renderViolation)) : null,
      renderOverview(report.overview),
      el("h3", { id: "listing-heading", text: "Your list" }),
      renderSource(report.source),
      el("p", { class: "hint", text: "Lines with a problem are marked." }),
      // a deck given by link: the text the service wrote for it and judged
      renderListing(report.decklist || text, report.violations, report.translated),
    ].filter((part) => part !== null));
    document.title = `${verdict(report)} · Commander deck validator`;
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
  const FIELD_LABELS = { decklist: "Decklist", url: "Link", decklist_format: "List format", commanders: "Commander", companion: "Companion", bracket: "Bracket", format: "Game format", signature_spells: "Signature spell", house_rules: "House rules" };

  /* Every leaf message of marshmallow's nested {field: [messages]} errors. */
  function leaves(value) {
    if (Array.isArray(value)) return value.flatMap(leaves);
    if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
    return [String(value)];
  }

  /* The API's error envelope {code, status, message, errors} as one sentence. */
  function errorMessage(response, body) {
    let message = (body && body.message) || `The server answered ${response.status}.`;
    const fields = body && body.errors && typeof body.errors === "object" ? Object.entries(body.errors) : [];
    const [field, value] = fields.length === 1 ? fields[0] : [];
    if (field && FIELD_LABELS[field] && leaves(value).join(" ") === message && message.startsWith(field + " ")) {
      // a field the format has no use for, named by its API key: the form's label, once (web.field_not_in_format)
      message = `The ${FIELD_LABELS[field]} field${message.slice(field.length)}`;
    } else if (fields.length) {
      const details = [];
      const said = (label, value) => {  // a house-rules detail the message does not already say
        const text = leaves(value).join(" ");
        if (text && text !== message) details.push(`${label}: ${text}`);
      };
      // a house-rules name that is no card comes as {name, suggestions}: the message names it already
      const named = (x) => x !== null && typeof x === "object" && !Array.isArray(x) && "suggestions" in x;
      for (const [name, item] of fields) {
        if (name === "house_rules" && item !== null && typeof item === "object" && !Array.isArray(item)) {
          // as web.describe_errors: each field of the rules with its own label
          for (const [key, part] of Object.entries(item)) {
            said(`House rules, ${key.replace(/_/g, " ")}`, Array.isArray(part) ? part.filter((x) => !named(x)) : part);
          }
        } else if (name === "house_rules") {
          said(FIELD_LABELS[name], item);
        } else {
          details.push(`${FIELD_LABELS[name] || name}: ${leaves(item).join(" ")}`);
        }
      }
      if (details.length) message += " " + details.join(" ");
    }
    // 503: card data not loaded yet, said as the page says it (the API's own words name a
    // time too: "retry in 30 s."); 429: over this client's request budget.
    if (response.status === 503) message = "Card data is not loaded yet.";
    const retry = response.headers.get("Retry-After");
    if ((response.status === 503 || response.status === 429) && retry) message += ` Try again in ${retry} second${retry === "1" ? "" : "s"}.`;
    return message;
  }

  /* One link alone in the box is the deck it names (web.deck_urls.link_alone's pattern). */
  const LINK_ALONE = /^(?:https?:\/\/\S+|(?:www\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\/\S*)$/i;
  const SITE_LABELS = { archidekt: "Archidekt", moxfield: "Moxfield" };

  function requestBody() {
    const link = textarea.value.trim();
    const body = LINK_ALONE.test(link) ? { url: link } : { decklist: textarea.value };
    body.include = ["overview", "formats"];  // the overview, every format's verdict
    const commanders = Array.from(form.querySelectorAll('input[name="commanders"]'))
      .map((input) => input.value.trim()).filter(Boolean);
    if (commanders.length) body.commanders = commanders;
    const companion = form.elements.companion && form.elements.companion.value.trim();
    if (companion) body.companion = companion;
    const spells = Array.from(form.querySelectorAll('input[name="signature_spells"]'))
      .map((input) => input.value.trim()).filter(Boolean);
    if (spells.length) body.signature_spells = spells;  // Oathbreaker's, as the API's field
    const format = form.elements.format && form.elements.format.value;
    if (format) body.decklist_format = format;
    const bracket = form.elements.bracket && form.elements.bracket.value;
    if (bracket === "none") body.bracket = null;  // not even the bracket a deck link declares
    else if (bracket) body.bracket = Number(bracket);  // the select offers 1-5 and none
    const chosen = form.elements.game_format && form.elements.game_format.value;
    if (chosen) body.format = chosen;  // the game format (the form's `format` is the list's syntax)
    const profile = form.elements.house_profile && form.elements.house_profile.value;
    const written = form.elements.house_rules ? form.elements.house_rules.value.trim() : "";
    if (profile && written) throw new HouseRulesInputError("Choose a house rules profile or write your table's rules, not both.");
    if (profile) body.house_rules = profile;
    else if (written) body.house_rules = parseHouseRules(written);
    return body;
  }

  async function validate() {
    const text = textarea.value;
    let request;
    try {
      request = requestBody();
    } catch (error) {
      if (error instanceof HouseRulesInputError) return renderError(error.message);  // as the server says it
      throw error;
    }
    const response = await fetch(form.dataset.api, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(request),
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
