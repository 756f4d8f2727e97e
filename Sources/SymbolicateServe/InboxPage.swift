import Foundation
import SymbolicateExplain

/// The crash inbox's page (`GET /inbox`; one group at `/inbox?group=ID`), its style sheet and
/// script, served from the binary like the report page. The script reads the same JSON API a
/// release gate reads (`/v1/groups`, `/v1/groups/{id}`) and builds every element with text
/// nodes: nothing a report says is read as markup. Tables with captions and header cells, real
/// links and buttons, labelled fields and one live status line make it keyboard- and
/// screen-reader-usable; the words are explain's catalog's, in each of its languages.
enum InboxPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>symbolicate inbox</title>
        <link rel="stylesheet" href="/page.css">
        <link rel="stylesheet" href="/inbox.css">
        <script src="/inbox.js" defer></script>
        </head>
        <body>
        <header><h1 data-text="title">Crash inbox</h1><p data-text="intro"></p></header>
        <main>
        <form id="filters" class="row">
        <label for="version" data-text="version">Version</label>
        <input id="version" name="version" size="10" autocomplete="off">
        <label for="os" data-text="os">OS</label>
        <input id="os" name="os" size="12" autocomplete="off">
        <label for="state" data-text="state">State</label>
        <select id="state" name="state">
        <option value="" data-text="all">All</option>
        <option value="new" data-text="stateNew">New in this version</option>
        <option value="open" data-text="stateOpen">Open</option>
        <option value="regressed" data-text="stateRegressed">Regressed</option>
        <option value="resolved" data-text="stateResolved">Resolved</option>
        <option value="ignored" data-text="stateIgnored">Ignored</option>
        </select>
        <label for="language" data-text="languageLabel">Language</label>
        <select id="language">\#(PageAssets.languageOptions)</select>
        <label for="token" data-text="token">Token</label>
        <input id="token" type="password" size="16" autocomplete="off">
        <button type="submit" id="apply" data-text="apply">Show</button>
        </form>
        <p id="status" role="status" aria-live="polite"></p>
        <section id="list" aria-labelledby="list-caption">
        <table id="groups">
        <caption id="list-caption"></caption>
        <thead><tr><th scope="col" data-text="count">Reports</th><th scope="col" data-text="crash">Crash</th>
        <th scope="col" data-text="versions">By version</th><th scope="col" data-text="state">State</th>
        <th scope="col" data-text="lastSeen">Last seen</th></tr></thead>
        <tbody id="rows"></tbody>
        </table>
        <nav class="row" aria-label="pages">
        <button type="button" id="previous" data-text="previous">Previous page</button>
        <button type="button" id="next" data-text="next">Next page</button>
        </nav>
        </section>
        <section id="group" hidden aria-labelledby="group-title">
        <p><a href="/inbox" id="back" data-text="back">Back to the inbox</a></p>
        <h2 id="group-title" tabindex="-1"></h2>
        <p id="group-facts"></p>
        <section id="explanation" hidden><h3 data-text="diagnosis">Diagnosis</h3><p id="diagnosis"></p>
        <h4 data-text="causes">Likely causes</h4><ul id="causes"></ul><h4 data-text="steps">Next steps</h4><ol id="steps"></ol></section>
        <form id="resolve" class="row">
        <label for="fixed" data-text="resolveIn">Fixed in version</label>
        <input id="fixed" size="10" autocomplete="off">
        <button type="submit" id="resolve-button" data-text="resolve">Mark resolved</button>
        <button type="button" id="reopen" data-text="reopen">Reopen</button>
        <button type="button" id="ignore" data-text="ignore">Ignore</button>
        </form>
        <h3 data-text="frames">Crashed thread</h3>
        <ol id="frames" class="frames"></ol>
        <table id="versions-table"><caption data-text="versions">By version</caption>
        <thead><tr><th scope="col" data-text="version">Version</th><th scope="col" data-text="count">Reports</th></tr></thead>
        <tbody id="version-rows"></tbody></table>
        <table id="examples"><caption data-text="examples">Latest reports</caption>
        <thead><tr><th scope="col" data-text="version">Version</th><th scope="col" data-text="os">OS</th>
        <th scope="col" data-text="device">Device</th><th scope="col" data-text="time">Time</th></tr></thead>
        <tbody id="example-rows"></tbody></table>
        </section>
        </main>
        </body>
        </html>

        """#

    /// The page's words in each language: explain's headings and the inbox's own phrases.
    static func texts(_ language: Language) -> [String: String] {
        var texts: [String: String] = [
            "diagnosis": Catalog.text(.uiDiagnosis, language), "causes": Catalog.text(.uiCauses, language),
            "steps": Catalog.text(.uiNextSteps, language), "languageLabel": Catalog.text(.pageLanguageLabel, language),
        ]
        let page: [(String, PhraseKey)] = [
            ("title", .inboxTitle), ("intro", .inboxIntro), ("version", .inboxVersion), ("os", .inboxOS), ("state", .inboxState),
            ("all", .inboxAll), ("stateNew", .inboxStateNew), ("stateOpen", .inboxStateOpen), ("stateResolved", .inboxStateResolved),
            ("stateRegressed", .inboxStateRegressed), ("stateIgnored", .inboxStateIgnored), ("token", .inboxToken),
            ("apply", .inboxApply), ("count", .inboxCount), ("crash", .inboxCrash), ("versions", .inboxVersions),
            ("lastSeen", .inboxLastSeen), ("previous", .inboxPrevious), ("next", .inboxNext), ("pageOf", .inboxPageOf),
            ("empty", .inboxEmpty), ("loading", .inboxLoading), ("back", .inboxBack), ("frames", .inboxFrames),
            ("examples", .inboxExamples), ("device", .inboxDevice), ("time", .inboxTime), ("resolveIn", .inboxResolveIn),
            ("resolve", .inboxResolve), ("reopen", .inboxReopen), ("ignore", .inboxIgnore), ("firstSeen", .inboxFirstSeen),
            ("resolvedIn", .inboxResolvedIn), ("regressedIn", .inboxRegressedIn), ("sparkline", .inboxSparkline),
            ("unknownFrame", .inboxUnknownFrame), ("noVersion", .inboxNoVersion),
        ]
        for (key, phrase) in page { texts[key] = Catalog.text(phrase, language) }
        return texts
    }

    static var textsJSON: String {
        var all: [String: [String: String]] = [:]
        for language in Language.allCases { all[language.rawValue] = texts(language) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(all)).map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c") } ?? "{}"
    }

    static let css = #"""
        table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
        caption { text-align: left; font-weight: 700; padding: .25rem 0; }
        th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #8884; vertical-align: top; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; }
        svg.spark { display: block; }
        svg.spark rect { fill: #1a73e8; }
        .state-regressed { color: var(--accent); font-weight: 700; }
        .frames { font: 13px/1.35 ui-monospace, Menlo, Consolas, monospace; padding-left: 2.5rem; }
        .frames .app { font-weight: 700; }
        input { font: inherit; }

        """#

    static let script = scriptTemplate.replacingOccurrences(of: "/*TEXTS*/{}", with: textsJSON)

    static let scriptTemplate = #"""
        "use strict";
        (function () {
          const $ = (id) => document.getElementById(id);
          const TEXTS = /*TEXTS*/{};
          const perPage = 50;
          let page = 1;
          let group = null;

          function t(key, values) {
            const table = TEXTS[$("language").value] || TEXTS.en || {};
            let text = table[key] || (TEXTS.en || {})[key] || key;
            for (const name in values || {}) text = text.split("{" + name + "}").join(values[name]);
            return text;
          }

          function translate() {
            document.documentElement.lang = $("language").value;
            for (const element of document.querySelectorAll("[data-text]")) element.textContent = t(element.dataset.text);
          }

          function say(text, isError) {
            $("status").textContent = text;
            $("status").className = isError ? "error" : "";
          }

          function headers() {
            const token = $("token").value.trim();
            return token ? { Authorization: "Bearer " + token } : {};
          }

          async function api(url, options) {
            const response = await fetch(url, Object.assign({ headers: headers() }, options || {}));
            const text = await response.text();
            if (!response.ok) {
              let message = text;
              try { message = JSON.parse(text).error.message || text; } catch (ignored) { /* shown as it is */ }
              throw new Error(message || response.statusText);
            }
            return JSON.parse(text);
          }

          function cell(row, text, className) {
            const td = document.createElement("td");
            if (className) td.className = className;
            if (text instanceof Node) td.append(text); else td.textContent = text;
            row.append(td);
            return td;
          }

          function crashName(key) {
            const parts = [key.exception || "", key.function || t("unknownFrame")];
            return parts.filter(Boolean).join(" · ") + (key.file ? " (" + key.file + ")" : "");
          }

          function stateText(group) {
            const names = { open: "stateOpen", resolved: "stateResolved", regressed: "stateRegressed", ignored: "stateIgnored" };
            return t(names[group.state] || group.state);
          }

          // Bars per version, oldest first; the numbers are the image's text for screen readers.
          function sparkline(versions) {
            const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
            const width = Math.max(1, versions.length) * 8;
            svg.setAttribute("class", "spark");
            svg.setAttribute("width", String(width));
            svg.setAttribute("height", "20");
            svg.setAttribute("role", "img");
            svg.setAttribute("aria-label", t("sparkline", { list: versions.map((v) => (v.version || t("noVersion")) + ": " + v.count).join(", ") }));
            const most = Math.max(1, ...versions.map((v) => v.count));
            versions.forEach((v, index) => {
              const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
              const height = Math.max(2, Math.round((v.count / most) * 20));
              rect.setAttribute("x", String(index * 8));
              rect.setAttribute("y", String(20 - height));
              rect.setAttribute("width", "6");
              rect.setAttribute("height", String(height));
              svg.append(rect);
            });
            return svg;
          }

          // An ISO 8601 time of the API, shown to the minute (UTC).
          function when(text) {
            return String(text || "").replace("T", " ").slice(0, 16);
          }

          function query() {
            const parts = ["page=" + page, "per_page=" + perPage];
            for (const name of ["version", "os", "state"]) {
              const value = $(name).value.trim();
              if (value) parts.push(name + "=" + encodeURIComponent(value));
            }
            return parts.join("&");
          }

          async function showList() {
            $("group").hidden = true;
            $("list").hidden = false;
            say(t("loading"), false);
            try {
              const answer = await api("/v1/groups?" + query());
              const rows = answer.groups.map((summary) => {
                const row = document.createElement("tr");
                cell(row, String(summary.count), "number");
                const link = document.createElement("a");
                link.href = "/inbox?group=" + encodeURIComponent(summary.group.id);
                link.textContent = crashName(summary.group.key);
                link.addEventListener("click", (event) => { event.preventDefault(); open(summary.group.id); });
                cell(row, link);
                cell(row, sparkline(summary.versions));
                cell(row, stateText(summary.group), "state-" + summary.group.state);
                cell(row, when(summary.group.lastSeen));
                return row;
              });
              $("rows").replaceChildren(...rows);
              const pages = Math.max(1, Math.ceil(answer.total / answer.perPage));
              $("list-caption").textContent = t("pageOf", { page: answer.page, pages: pages, total: answer.total });
              $("previous").disabled = answer.page <= 1;
              $("next").disabled = answer.page >= pages;
              say(answer.total === 0 ? t("empty") : "", false);
            } catch (error) {
              say(String(error.message || error), true);
            }
          }

          function fill(list, items) {
            list.replaceChildren(...items.map((item) => { const li = document.createElement("li"); li.textContent = item; return li; }));
          }

          async function open(id) {
            history.pushState({ group: id }, "", "/inbox?group=" + encodeURIComponent(id));
            await showGroup(id);
          }

          async function showGroup(id) {
            $("list").hidden = true;
            $("group").hidden = false;
            say(t("loading"), false);
            try {
              const answer = await api("/v1/groups/" + encodeURIComponent(id) + "?language=" + $("language").value);
              group = answer.group;
              const diagnosis = answer.diagnosis;
              $("group-title").textContent = (diagnosis && diagnosis.headline) || crashName(group.key);
              const facts = [crashName(group.key), stateText(group)];
              if (group.firstVersion) facts.push(t("firstSeen", { version: group.firstVersion }));
              if (group.resolvedIn) facts.push(t("resolvedIn", { version: group.resolvedIn }));
              if (group.regressedIn) facts.push(t("regressedIn", { version: group.regressedIn }));
              $("group-facts").textContent = facts.join(" — ");
              $("explanation").hidden = !diagnosis;
              if (diagnosis) {
                $("diagnosis").textContent = diagnosis.headline || "";
                fill($("causes"), (diagnosis.causes || []).map((cause) => cause.text));
                fill($("steps"), diagnosis.nextSteps || []);
              }
              const frames = ((answer.newest || {}).frames || []).map((frame) => {
                const li = document.createElement("li");
                if (frame.isApp) li.className = "app";
                li.textContent = (frame.image || "?") + "  " + (frame.function || "???") + (frame.file ? "  " + frame.file + (frame.line ? ":" + frame.line : "") : "");
                return li;
              });
              $("frames").replaceChildren(...frames);
              $("version-rows").replaceChildren(...answer.versions.map((v) => {
                const row = document.createElement("tr");
                cell(row, v.version || t("noVersion"));
                cell(row, String(v.count), "number");
                return row;
              }));
              $("example-rows").replaceChildren(...answer.examples.map((report) => {
                const row = document.createElement("tr");
                cell(row, report.version || t("noVersion"));
                cell(row, report.os || "");
                cell(row, report.device || "");
                cell(row, report.statedTime || when(report.seenAt));
                return row;
              }));
              say("", false);
              $("group-title").focus();
            } catch (error) {
              say(String(error.message || error), true);
            }
          }

          async function change(body) {
            try {
              group = await api("/v1/groups/" + encodeURIComponent(group.id) + "/state", {
                method: "POST", body: JSON.stringify(body),
                headers: Object.assign({ "Content-Type": "application/json" }, headers()),
              });
              await showGroup(group.id);
              say(stateText(group), false);
            } catch (error) {
              say(String(error.message || error), true);
            }
          }

          function route() {
            const id = new URLSearchParams(location.search).get("group");
            if (id) showGroup(id); else showList();
          }

          $("filters").addEventListener("submit", (event) => { event.preventDefault(); page = 1; history.pushState({}, "", "/inbox"); showList(); });
          $("previous").addEventListener("click", () => { page = Math.max(1, page - 1); showList(); });
          $("next").addEventListener("click", () => { page += 1; showList(); });
          $("back").addEventListener("click", (event) => { event.preventDefault(); history.pushState({}, "", "/inbox"); showList(); });
          $("resolve").addEventListener("submit", (event) => {
            event.preventDefault();
            const version = $("fixed").value.trim();
            if (!version) { say(t("resolveIn"), true); $("fixed").focus(); return; }
            change({ state: "resolved", version: version });
          });
          $("reopen").addEventListener("click", () => change({ state: "open" }));
          $("ignore").addEventListener("click", () => change({ state: "ignored" }));
          $("language").addEventListener("change", () => { translate(); route(); });
          window.addEventListener("popstate", route);
          translate();
          route();
        })();

        """#
}
