/* Progressive enhancement for the paste-and-validate page.
 *
 * Without this file the page is a plain form POST rendered by the server (web.py).
 * With it: files are read into the textarea (choose or drop), the form posts JSON to
 * /api/v1/validate and the verdict is rendered without a reload, and clicking a
 * violation highlights its lines. Every piece of data goes into the page through
 * textContent or attributes, never innerHTML: names and lines are the user's text.
 *
 * Every word it writes is the server's, in the page's language: <body data-texts> holds them
 * (web/script_texts.py), as catalog templates with %(name)s placeholders; plural texts by
 * CLDR plural category, picked with Intl.PluralRules.
 */
"use strict";

(function () {
  const T = JSON.parse((document.body && document.body.dataset.texts) || "{}");
  if (!T.plural) return;  // no texts: the plain form still works
  const LANG = T.lang || document.documentElement.lang || "en";
  const PLURAL_RULES = new Intl.PluralRules(LANG);
  const COLOR_NAMES = T.colors;  // validator.overview.COLOR_NAMES, in the page's language
  const LANGUAGE_NAMES = T.languages;  // the languages card names are printed in (Scryfall's codes)
  /* The codes whose cards are names as written (no card to link to). */
  const TYPED_CODES = ["unknown_card", "ambiguous_card"];
  const BRACKET_NAMES = T.brackets;  // validator.brackets.BRACKET_NAMES

  /* A catalog template filled: %(name)s by its value, %% as %. */
  function fmt(template, values) {
    return template.replace(/%(?:\((\w+)\)s|%)/g, (all, name) => (name === undefined ? "%" : String(values[name])));
  }

  /* The same, for values that are nodes (a link, a <strong>): the pieces to append, in order. */
  function fmtNodes(template, values) {
    const out = [];
    let last = 0;
    template.replace(/%(?:\((\w+)\)s|%)/g, (all, name, offset) => {
      out.push(template.slice(last, offset));
      out.push(name === undefined ? "%" : values[name]);
      last = offset + all.length;
      return all;
    });
    out.push(template.slice(last));
    return out.filter((part) => part !== "");
  }

  /* A plural text for n (its %(num)s is n), the language's plural rules choosing the form. */
  function plural(key, n, values) {
    const forms = T.plural[key];
    return fmt(forms[PLURAL_RULES.select(n)] || forms.other, { ...(values || {}), num: String(n) });
  }

  const typeName = (kind) => (Object.prototype.hasOwnProperty.call(T.types, kind) ? T.types[kind] : kind);
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
      name, el("span", { class: "visually-hidden", text: ` ${T.opens_scryfall}` }));
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
      status.textContent = plural("loaded", textarea.value.split(/\r\r\n|\r\n|\r|\n/).length, { file: file.name });
      textarea.focus();
    });
    reader.addEventListener("error", () => { status.textContent = fmt(T.could_not_read, { file: file.name }); });
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
        throw new HouseRulesInputError(fmt(T.house_rules_line, { line: index + 1 }));
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

  /* "Legal", "Not legal", or "Not legal under Thursday at the store's rules" (web.verdict). */
  function verdict(report) {
    const prefix = report.valid ? "legal" : "not_legal";
    if (!report.house_rules) return T[prefix];
    const name = report.house_rules.name;
    if (!name) return T[`${prefix}_house`];
    return fmt(T[name.endsWith("s") ? `${prefix}_named_s` : `${prefix}_named`], { name });
  }

  function houseRulesFact(h) {
    if (!h) return null;
    const name = h.name || T.your_rules;
    const rules = h.profile ? fmt(T.with_profile, { name, profile: h.profile }) : name;
    const text = fmt(h.max_bracket ? T.house_counts_max : T.house_counts, { rules, banned: h.banned,
      banned_as_commander: h.banned_as_commander, unbanned: h.unbanned, max_bracket: h.max_bracket });
    return el("div", { class: "house-rules-fact" }, el("dt", { text: T.house_rules }),
      el("dd", { id: "house-rules-judged", "data-profile": h.profile || "", text }));
  }

  function renderFacts(report) {
    const fmt = gameFormat(report.format);
    const commanders = report.commanders.length
      ? el("ul", { class: "inline-list" }, report.commanders.map((name) => el("li", {}, cardLink(name))))
      : T.none_found;
    const identity = report.color_identity.length ? report.color_identity.map(pip) : [pip("C")];
    const fact = (label, ...value) => el("div", {}, el("dt", { text: label }), el("dd", {}, ...value));
    const role = plural(fmt.role === "oathbreaker" ? "oathbreaker" : "commander", report.commanders.length);
    const spells = report.signature_spells || [];
    const count = el("span", { class: report.card_count === fmt.deckSize ? "count-ok" : "count-bad", text: String(report.card_count) });
    return el("dl", { class: "facts" },
      el("div", {}, el("dt", { text: T.format }), el("dd", { id: "judged-format", "data-format": fmt.key, text: fmt.name })),
      fact(role, commanders),
      el("div", {}, el("dt", { text: T.color_identity }), el("dd", { class: "pips" }, identity)),
      spells.length ? el("div", { class: "signature-spells" }, el("dt", { text: plural("signature_spells", spells.length) }),
        el("dd", {}, el("ul", { class: "inline-list" }, spells.map((name) => el("li", {}, cardLink(name)))))) : null,
      report.companion ? fact(T.companion, cardLink(report.companion)) : null,
      fact(T.cards, ...fmtNodes(T.count_of, { count, size: String(fmt.deckSize) })),
      // The API's `format` is the game format; the syntax the list was read as is decklist_format.
      report.decklist_format ? fact(T.read_as, report.decklist_format) : null,
      houseRulesFact(report.house_rules));
  }

  /* ---- every format's verdict (include: ["formats"], as the template renders it) ---- */

  // Each status's own mark (app.css), words and style: the data's "unknown" never reads as legal.
  const FORMAT_STATUSES = {
    legal: { css: "format-legal", words: T.statuses.legal },
    not_legal: { css: "format-illegal", words: T.statuses.not_legal },
    unknown: { css: "format-unknown", words: T.statuses.unknown },
  };

  function renderFormats(formats) {
    if (!formats) return [];
    return [
      el("h3", { id: "formats-heading", text: T.in_every_format }),
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
    const minimum = el("strong", { text: `${bracket.minimum} (${BRACKET_NAMES[bracket.minimum]})` });
    const said = bracket.declared
      ? fmtNodes(T.minimum_checked, { minimum, declared: String(bracket.declared), name: BRACKET_NAMES[bracket.declared] })
      : fmtNodes(T.minimum, { minimum });
    return el("p", { id: "bracket-minimum", class: "bracket-minimum", "data-minimum": bracket.minimum }, said);
  }

  function bracketList(label, names, kind) {
    let value;
    if (names === null || names === undefined) {
      value = el("span", { class: "not-checked", text: T.not_loaded });
    } else if (!names.length) {
      value = T.none;
    } else if (kind === "two_card_combos") {
      value = el("ul", { class: "combos" }, names.map((pair) => el("li", {}, cardLink(pair[0]), " + ", cardLink(pair[1]))));
    } else {
      value = el("span", { class: "inline-list" }, cardList(names));
    }
    return el("div", { class: "bracket-list", "data-list": kind }, el("dt", { text: label }), el("dd", {}, value));
  }

  function renderBracket(bracket) {
    return [
      el("h3", { id: "bracket-heading", text: fmt(T.why_bracket, { bracket: bracket.minimum }) }),
      el("ul", { class: "bracket-reasons", "aria-labelledby": "bracket-heading" }, bracket.reasons.map((reason) => {
        const unchecked = reason.bracket === null;
        return el("li", { class: unchecked ? "reason not-checked" : "reason", "data-bracket": unchecked ? "" : reason.bracket },
          unchecked ? [el("strong", { text: T.not_checked }), " "] : null, reason.message);
      })),
      el("dl", { class: "bracket-lists" },
        bracketList(T.game_changers, bracket.game_changers, "game_changers"),
        bracketList(T.mass_land_denial, bracket.mass_land_denial, "mass_land_denial"),
        bracketList(T.extra_turns, bracket.extra_turns, "extra_turns"),
        bracketList(T.two_card_combos, bracket.two_card_combos, "two_card_combos")),
    ];
  }

  function renderViolation(v) {
    const lines = v.lines || [];
    const lineLinks = [];
    lines.forEach((n, i) => {
      if (i) lineLinks.push(" ");
      lineLinks.push(el("a", { class: "line-link", href: `#L${n}`, "aria-label": fmt(T.line, { line: n }), text: String(n) }));
    });
    const cards = v.cards || [];
    const suggestions = v.suggestions || [];
    return el("li", { class: `violation severity-${v.severity}`, "data-code": v.code, "data-lines": lines.join(" ") },
      el("p", { class: "violation-head" },
        el("span", { class: `badge badge-${v.severity}`, text: v.severity === "error" ? T.error : T.warning }), " ",
        el("code", { class: "code", text: v.code }),
        v.rule ? [" ", el("span", { class: "rule", text: fmt(T.rule, { rule: v.rule }) })] : null),
      el("p", { class: "message", text: isolateNames(v.message, v.cards || []) }),
      cards.length ? el("p", { class: "cards" }, el("span", { class: "label", text: plural("card_label", cards.length) }), " ",
        el("span", { class: "inline-list" }, TYPED_CODES.includes(v.code) ? typedList(cards) : cardList(cards))) : null,
      lines.length ? el("p", { class: "lines" }, el("span", { class: "label", text: plural("line_label", lines.length) }), " ", lineLinks) : null,
      suggestions.length ? el("p", { class: "suggestions" }, el("span", { class: "label", text: T.did_you_mean }), " ", cardList(suggestions)) : null);
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
    return el("ol", { class: "listing", "aria-labelledby": "listing-heading", tabindex: "0" }, lines.map((content, i) => {
      const n = i + 1;
      const mark = marks.get(n);
      return el("li", { id: `L${n}`, class: mark ? `line flagged flagged-${mark.severity}` : "line", "data-line": n },
        el("span", { class: "ln" }, el("span", { class: "visually-hidden", text: `${T.line_prefix} ` }), String(n)),
        el("span", { class: "text", text: content }),
        (english.get(n) || []).map(([card, language]) => el("span", { class: "translated" },
          el("span", { class: "visually-hidden", text: `${fmt(T.read_in, { language })} ` }),
          el("span", { class: "english", lang: "en", text: card }), " ",
          el("span", { class: "lang", "aria-hidden": "true", text: language }))),
        mark ? el("span", { class: "mark" }, el("span", { class: "visually-hidden", text: `${mark.severity === "error" ? T.error_mark : T.warning_mark} ` }),
          mark.codes.join(", ")) : null);
    }));
  }

  function summary(report) {
    const errors = report.violations.filter((v) => v.severity === "error").length;
    const warnings = report.violations.length - errors;
    return [errors, warnings, fmt(T.summary, { verdict: verdict(report), errors: plural("errors", errors), warnings: plural("warnings", warnings) })];
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
    return { key: "curve", title: T.mana_curve, height: 166, bars, labels,
      description: fmt(T.curve_description, { values: CURVE_BUCKETS.map((b) => `${b}: ${curve[b] || 0}`).join(", ") }),
      head: [T.mana_value, T.nonland_cards], rows: CURVE_BUCKETS.map((b) => [b, String(curve[b] || 0)]) };
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
      const costShare = fmt(T.share, { count: cost, percent }), ofLands = fmt(T.count_of, { count: lands, size: o.lands });
      labels.push([0, top + 21, name, "name", "start"]);
      labels.push([72 + costWidth + 5, top + 13, costShare, "value", "start"]);
      labels.push([72 + landWidth + 5, top + 28, ofLands, "value", "start"]);
      said.push(fmt(T.color_said, { color: name, symbols: plural("symbols", cost), percent, lands, total: o.lands }));
      rows.push([name, costShare, ofLands]);
    });
    return { key: "colors", title: T.color_balance, height: Math.max(said.length, 1) * 40 + 8, bars, labels,
      description: fmt(T.colors_description, { colors: said.join("; ") || T.none }),
      head: [T.color, T.symbols_in_costs, T.lands_producing], rows };
  }

  function typeChart(types) {
    const entries = Object.entries(types);
    const largest = Math.max(0, ...entries.map(([, n]) => n)) || 1;
    const bars = [], labels = [];
    entries.forEach(([kind, count], row) => {
      const width = round(count / largest * 168);
      bars.push([104, row * 24 + 4, width, 16, "bar bar-type"]);
      labels.push([0, row * 24 + 16, typeName(kind), "name", "start"]);
      labels.push([104 + width + 5, row * 24 + 16, String(count), "value", "start"]);
    });
    return { key: "types", title: T.card_types, height: Math.max(entries.length, 1) * 24 + 4, bars, labels,
      description: fmt(T.types_description, { types: entries.map(([k, n]) => `${typeName(k)} ${n}`).join(", ") || T.none }),
      head: [T.card_type, T.cards], rows: entries.map(([k, n]) => [typeName(k), String(n)]) };
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
      chart.key === "colors" ? el("p", { class: "hint legend", text: T.legend }) : null,
      el("details", { class: "chart-table" },
        el("summary", { text: fmt(T.as_table, { chart: chart.title }) }),
        el("table", {},
          el("caption", { class: "visually-hidden", text: chart.title }),
          el("thead", {}, el("tr", {}, chart.head.map((h) => el("th", { scope: "col", text: h })))),
          el("tbody", {}, chart.rows.map(([first, ...cells]) =>
            el("tr", {}, el("th", { scope: "row", text: first }), cells.map((c) => el("td", { text: c }))))))));
  }

  function renderOverview(o) {
    if (!o) return null;
    const groups = Object.entries(o.cards_by_type || {});
    return el("section", { id: "overview", class: "overview", "aria-labelledby": "overview-heading" },
      el("h3", { id: "overview-heading", text: T.deck_overview }),
      el("p", { class: "hint overview-summary", text: fmt(T.overview_summary, { cards: plural("cards", o.cards), lands: plural("lands", o.lands), other: o.cards - o.lands }) }),
      el("div", { class: "charts" }, [curveChart(o.curve), colorChart(o), typeChart(o.types)].map(renderChart)),
      groups.length ? el("details", { class: "deck-cards" },
        el("summary", { text: T.cards_by_type }),
        el("div", { class: "type-groups" }, groups.map(([kind, cards]) =>
          el("div", { class: "type-group", "data-type": kind },
            el("h4", { text: `${typeName(kind)} (${o.types[kind]})` }),
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
    const deck = el("a", { href: source.url, rel: "noopener noreferrer", target: "_blank" }, source.name || source.url,
      el("span", { class: "visually-hidden", text: ` ${fmt(T.opens_site, { site: label })}` }));
    const time = el("time", { datetime: source.fetched_at, text: source.fetched_at });
    return el("p", { id: "deck-source", class: "deck-source" }, ...fmtNodes(
      source.declared_bracket ? T.read_from_declared : T.read_from,
      { deck, site: label, time, bracket: String(source.declared_bracket) }));
  }

  function renderReport(report, text) {
    images = (report.overview && report.overview.images) || {};
    const [errors, warnings, line] = summary(report);
    const problems = report.violations.length
      ? fmt(T.problems, { errors: plural("errors", errors), warnings: plural("warnings", warnings) })
      : T.no_problems;
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
      el("h3", { id: "listing-heading", text: T.your_list }),
      renderSource(report.source),
      el("p", { class: "hint", text: T.marked }),
      // a deck given by link: the text the service wrote for it and judged
      renderListing(report.decklist || text, report.violations, report.translated),
    ].filter((part) => part !== null));
    document.title = `${verdict(report)} · ${T.app}`;
    return line;
  }

  function renderError(message) {
    result.replaceChildren(
      el("h2", { id: "result-heading", text: T.could_not_validate }),
      el("p", { class: "alert", role: "alert", text: message }));
    document.title = `${T.error} · ${T.app}`;
    return message;
  }

  /* The API's field names as the form labels them (web.forms.field_labels). */
  const FIELD_LABELS = T.fields;

  /* Every leaf message of marshmallow's nested {field: [messages]} errors. */
  function leaves(value) {
    if (Array.isArray(value)) return value.flatMap(leaves);
    if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
    return [String(value)];
  }

  /* The API's error envelope {code, status, message, errors} as one sentence. */
  function errorMessage(response, body) {
    let message = (body && body.message) || fmt(T.server_answered, { status: response.status });
    const fields = body && body.errors && typeof body.errors === "object" ? Object.entries(body.errors) : [];
    const [field, value] = fields.length === 1 ? fields[0] : [];
    if (field && FIELD_LABELS[field] && leaves(value).join(" ") === message && message.startsWith(field + " ")) {
      // a field the format has no use for, named by its API key: the form's label, once (web.field_not_in_format)
      message = fmt(T.field_is, { label: FIELD_LABELS[field], rest: message.slice(field.length) });
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
            said(fmt(T.house_rules_field, { field: key.replace(/_/g, " ") }), Array.isArray(part) ? part.filter((x) => !named(x)) : part);
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
    if (response.status === 503) message = T.not_loaded_yet;
    const retry = response.headers.get("Retry-After");
    if ((response.status === 503 || response.status === 429) && /^[0-9]+$/.test(retry || "")) {
      message += ` ${plural("retry", Number(retry))}`;
    }
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
    if (profile && written) throw new HouseRulesInputError(T.house_rules_both);
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
      // the answer's messages in the page's language (the API follows Accept-Language)
      headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": LANG },
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
      status.textContent = renderError(T.paste_first);
      textarea.focus();
      return;
    }
    submit.disabled = true;
    result.setAttribute("aria-busy", "true");
    status.textContent = T.validating;
    validate()
      .catch(() => renderError(T.unreachable))
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
