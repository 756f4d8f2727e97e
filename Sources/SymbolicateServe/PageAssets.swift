import Foundation
import SymbolicateExplain

/// The page of `GET /`, its style sheet and its script: served from the binary itself (no CDN,
/// works offline), plain HTML that works with a keyboard and on a phone. The script only talks
/// to this server's own API (`POST /v1/symbolicate`) and builds the answer with text nodes, so
/// nothing in a report is ever read as markup.
enum PageAssets {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>symbolicate</title>
        <link rel="stylesheet" href="/page.css">
        <script src="/page.js" defer></script>
        </head>
        <body>
        <header><h1>symbolicate</h1>
        <p data-text="intro">Paste an Apple crash report (.crash, .ips, MetricKit, KSCrash, Sentry, a Linux Swift backtrace) or drop its file here.
        It is symbolicated with this server's debug files; nothing is kept.</p></header>
        <main>
        <form id="form">
        <label for="report" data-text="reportLabel">Crash report</label>
        <textarea id="report" name="report" rows="12" spellcheck="false" autocomplete="off" placeholder="Paste the report, or drop a file on this box"></textarea>
        <div class="row">
        <label for="file" data-text="fileLabel">Or choose a file</label>
        <input type="file" id="file" accept=".crash,.ips,.txt,.json,.log,text/plain,application/json">
        </div>
        <div class="row">
        <label><input type="checkbox" id="explain" checked> <span data-text="explainLabel">Explain the crash</span></label>
        <label for="language" data-text="languageLabel">Language</label>
        <select id="language">\#(languageOptions)</select>
        <button type="submit" id="go" data-text="go">Symbolicate</button>
        </div>
        </form>
        <p id="status" role="status" aria-live="polite"></p>
        <section id="result" hidden aria-labelledby="headline">
        <h2 id="headline" tabindex="-1"></h2>
        <section id="explanation" hidden><h3 data-text="diagnosis">Diagnosis</h3><p id="diagnosis"></p>
        <h4 data-text="causes">Likely causes</h4><ul id="causes"></ul><h4 data-text="steps">Next steps</h4><ol id="steps"></ol></section>
        <section id="source" hidden><h3 data-text="source">Source lines</h3><div id="source-frames"></div></section>
        <section id="images" hidden><h3 data-text="images">Missing or mismatched debug files</h3><ul id="image-list"></ul></section>
        <div class="row downloads"><span data-text="download">Download:</span>
        <button type="button" data-format="text" data-name="symbolicated.crash">.crash</button>
        <button type="button" data-format="ips" data-name="symbolicated.ips" id="download-ips">.ips</button>
        <button type="button" data-format="markdown" data-name="symbolicated.md">Markdown</button>
        </div>
        <h3 data-text="report">Report</h3>
        <pre id="report-text" tabindex="0" aria-label="Symbolicated report"></pre>
        </section>
        </main>
        </body>
        </html>

        """#

    /// The page's words in each language, by key. The diagnosis headings are the explain
    /// catalog's own (the CLI's `--explain` says the same); the rest belongs to the page.
    static func texts(_ language: Language) -> [String: String] {
        var texts: [String: String] = [
            "diagnosis": Catalog.text(.uiDiagnosis, language),
            "causes": Catalog.text(.uiCauses, language),
            "steps": Catalog.text(.uiNextSteps, language),
            "source": Catalog.text(.summarySource, language),
        ]
        let page: [(String, PhraseKey)] = [
            ("intro", .pageIntro), ("reportLabel", .pageReportLabel), ("placeholder", .pagePlaceholder),
            ("fileLabel", .pageFileLabel), ("explainLabel", .pageExplainLabel), ("languageLabel", .pageLanguageLabel),
            ("go", .pageGo), ("images", .pageImages), ("download", .pageDownload), ("report", .pageReport),
            ("working", .pageWorking), ("done", .pageDone), ("empty", .pageEmpty), ("symbolicated", .pageSymbolicated),
            ("downloaded", .pageDownloaded), ("missing-debug-file", .pageMissingDebugFile), ("uuid-mismatch", .pageUuidMismatch),
            ("missing-uuid", .pageMissingUuid), ("unreadable-debug-file", .pageUnreadableDebugFile),
            ("matched-by-name", .pageMatchedByName), ("ambiguous-name", .pageAmbiguousName),
            ("sourceLastChanged", .pageSourceLastChanged), ("sourceChanged", .pageSourceChanged),
        ]
        for (key, phrase) in page { texts[key] = Catalog.text(phrase, language) }
        return texts
    }

    /// The language menu: one option per `Language` case, named in itself.
    static var languageOptions: String {
        Language.allCases.map { #"<option value="\#($0.rawValue)">\#($0.nativeName)</option>"# }.joined()
    }

    /// Every language's words as one JSON object for the script.
    static var textsJSON: String {
        var all: [String: [String: String]] = [:]
        for language in Language.allCases { all[language.rawValue] = texts(language) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // `<` escaped: the text can never close a script element.
        return (try? encoder.encode(all)).map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c") } ?? "{}"
    }

    static let css = #"""
        :root { color-scheme: light dark; --accent: #b3261e; --crashed: rgba(179, 38, 30, 0.12); }
        body { font: 16px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem; }
        h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
        label { font-weight: 600; }
        textarea, pre { font: 13px/1.35 ui-monospace, Menlo, Consolas, monospace; }
        textarea { display: block; width: 100%; box-sizing: border-box; margin: .25rem 0 .5rem; }
        textarea.dragging { outline: 3px dashed var(--accent); }
        .row { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin: .5rem 0; }
        button { font: inherit; padding: .4rem 1rem; cursor: pointer; }
        :focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
        #status.error { color: var(--accent); white-space: pre-wrap; }
        pre { overflow-x: auto; padding: .5rem; border: 1px solid #8884; }
        .crashed { display: block; background: var(--crashed); border-left: 4px solid var(--accent); }
        .crashed-title { color: var(--accent); font-weight: 700; }
        .app { font-weight: 700; }
        pre.source mark { display: block; background: var(--crashed); color: inherit; }
        #source h4 { margin: .75rem 0 .25rem; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 14px; }
        @media (max-width: 40rem) { body { padding: .5rem; } textarea, pre { font-size: 12px; } }

        """#

    static let script = scriptTemplate.replacingOccurrences(of: "/*TEXTS*/{}", with: textsJSON)

    static let scriptTemplate = #"""
        "use strict";
        (function () {
          const $ = (id) => document.getElementById(id);
          const TEXTS = /*TEXTS*/{};
          let lastReport = "";
          let lastFormat = "";

          function t(key, values) {
            const table = TEXTS[$("language").value] || TEXTS.en || {};
            let text = table[key] || (TEXTS.en || {})[key] || key;
            for (const name in values || {}) text = text.split("{" + name + "}").join(values[name]);
            return text;
          }

          // The page's words in the language chosen (the headings, the labels, the buttons).
          function translate() {
            document.documentElement.lang = $("language").value;
            for (const element of document.querySelectorAll("[data-text]")) element.textContent = t(element.dataset.text);
            $("report").placeholder = t("placeholder");
          }

          function say(text, isError) {
            $("status").textContent = text;
            $("status").className = isError ? "error" : "";
          }

          function query(format) {
            const parts = ["format=" + format, "language=" + $("language").value];
            if ($("explain").checked) parts.push("explain=1");
            return "/v1/symbolicate?" + parts.join("&");
          }

          async function post(format, body, explain) {
            const url = explain ? query(format) : "/v1/symbolicate?format=" + format;
            const response = await fetch(url, { method: "POST", body: body, headers: { "Content-Type": "application/octet-stream" } });
            const text = await response.text();
            if (!response.ok) {
              // Every API error is {"error": {"message": …, "status": …}}.
              let message = text;
              try { message = JSON.parse(text).error.message || text; } catch (ignored) { /* not JSON: shown as it is */ }
              throw new Error(message || response.statusText);
            }
            return text;
          }

          function fill(list, items) {
            list.replaceChildren(...items.map((item) => { const li = document.createElement("li"); li.textContent = item; return li; }));
          }

          // Apple's layout, line by line: the crashed thread's block is marked, app frames bold.
          function showReport(text, appImages) {
            const pre = $("report-text");
            pre.replaceChildren();
            let block = null;
            for (const line of text.split("\n")) {
              if (/^Thread \d+ Crashed:/.test(line)) {
                block = document.createElement("span");
                block.className = "crashed";
                block.id = "crashed-thread";
                pre.append(block);
                const title = document.createElement("span");
                title.className = "crashed-title";
                title.textContent = line + "\n";
                block.append(title);
                continue;
              }
              if (block && line.trim() === "") block = null;
              const target = block || pre;
              const frame = /^\d+\s+(\S.*?)\s+0x[0-9a-fA-F]+\s/.exec(line);
              if (frame && appImages.has(frame[1].trim())) {
                const strong = document.createElement("strong");
                strong.className = "app";
                strong.textContent = line;
                target.append(strong, "\n");
              } else {
                target.append(line + "\n");
              }
            }
          }

          // `--source-root`: each frame's lines (the crashing one marked), history and link.
          function showSource(context) {
            const box = $("source-frames");
            box.replaceChildren();
            $("source").hidden = !context;
            if (!context) return;
            for (const frame of context.frames || []) {
              const title = document.createElement("h4");
              const where = (frame.path || frame.file) + ":" + frame.line;
              if (frame.permalink && /^https:\/\//.test(frame.permalink)) {
                const link = document.createElement("a");
                link.href = frame.permalink;
                link.textContent = where;
                title.append(link);
              } else {
                title.append(where);
              }
              if (frame.function) title.append(" — " + frame.function);
              box.append(title);
              if ((frame.lines || []).length) {
                const pre = document.createElement("pre");
                pre.className = "source";
                const width = String(frame.lines[frame.lines.length - 1].number).length;
                for (const line of frame.lines) {
                  const text = String(line.number).padStart(width) + " | " + line.text;
                  if (line.marked) {
                    const mark = document.createElement("mark");
                    mark.textContent = text;
                    pre.append(mark);
                  } else {
                    pre.append(text + "\n");
                  }
                }
                box.append(pre);
              }
              const facts = [];
              if (frame.note) facts.push(frame.note.kind + (frame.note.detail ? ": " + frame.note.detail : ""));
              const change = frame.lastChange;
              if (change) facts.push(t("sourceLastChanged", { commit: change.commit.slice(0, 10), author: change.author, date: change.date.slice(0, 10), summary: change.summary }));
              const since = frame.sinceBuild;
              if (since && since.changed) facts.push(t("sourceChanged", { commit: (since.commit || "").slice(0, 10), subject: since.subject || "" }));
              if (facts.length) {
                const list = document.createElement("ul");
                fill(list, facts);
                box.append(list);
              }
            }
          }

          function showFacts(json) {
            const first = Array.isArray(json) ? json[0] : json;
            $("headline").textContent = first.headline || t("symbolicated");
            // .ips is offered only for an .ips report (the only kind it can be given as).
            lastFormat = ((first.report || {}).format) || "";
            $("download-ips").hidden = lastFormat !== "ips";
            const diagnosis = first.diagnosis;
            $("explanation").hidden = !diagnosis;
            if (diagnosis) {
              $("diagnosis").textContent = diagnosis.headline || "";
              fill($("causes"), (diagnosis.causes || []).map((cause) => cause.text + (cause.likelihood ? " (" + cause.likelihood + ")" : "")));
              fill($("steps"), diagnosis.nextSteps || []);
            }
            const images = ((first.symbolication || {}).diagnostics || []).map((image) => {
              if (image.kind === "uuid-mismatch") {
                // Both identities, as the CLI says it: the one the report expects and the file's.
                return image.imageName + ": " + t("uuid-mismatch", { expected: image.uuid || "?", file: image.debugFile || "?", found: image.debugFileUUID || "?" });
              }
              return image.imageName + ": " + t(image.kind) + (image.uuid ? " (" + image.uuid + ")" : "");
            });
            showSource(first.sourceContext);
            $("images").hidden = images.length === 0;
            fill($("image-list"), images);
            const apps = new Set();
            for (const report of Array.isArray(json) ? json : [json]) {
              for (const image of ((report.report || {}).binaryImages || [])) if (image.isAppOwned) apps.add(image.name);
            }
            return apps;
          }

          async function run(event) {
            if (event) event.preventDefault();
            const body = $("report").value;
            if (!body.trim()) { say(t("empty"), true); $("report").focus(); return; }
            say(t("working"), false);
            $("go").disabled = true;
            try {
              const [json, text] = await Promise.all([post("json", body, true), post("text", body, false)]);
              lastReport = body;
              const apps = showFacts(JSON.parse(json));
              showReport(text, apps);
              $("result").hidden = false;
              say(t("done"), false);
              $("headline").focus();
            } catch (error) {
              $("result").hidden = true;
              say(String(error.message || error), true);
            } finally {
              $("go").disabled = false;
            }
          }

          async function download(button) {
            try {
              const format = button.dataset.format;
              const text = await post(format, lastReport, format === "markdown");
              const link = document.createElement("a");
              link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
              link.download = button.dataset.name;
              document.body.append(link);
              link.click();
              link.remove();
              // A success replaces an earlier error.
              say(t("downloaded", { name: button.dataset.name }), false);
              setTimeout(() => URL.revokeObjectURL(link.href), 10000);
            } catch (error) {
              say(String(error.message || error), true);
            }
          }

          async function load(file) {
            if (!file) return;
            $("report").value = await file.text();
            run();
          }

          $("form").addEventListener("submit", run);
          $("language").addEventListener("change", translate);
          translate();
          $("file").addEventListener("change", () => load($("file").files[0]));
          for (const button of document.querySelectorAll(".downloads button")) button.addEventListener("click", () => download(button));
          const area = $("report");
          area.addEventListener("dragover", (event) => { event.preventDefault(); area.classList.add("dragging"); });
          area.addEventListener("dragleave", () => area.classList.remove("dragging"));
          area.addEventListener("drop", (event) => {
            event.preventDefault();
            area.classList.remove("dragging");
            load(event.dataTransfer.files[0]);
          });
        })();

        """#
}
