import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// The diagnosis in each language: the same verdict (the rules run on one rendering), and
/// prose in the reader's language from end to end.
@Suite struct LanguageDiagnosisTests {
    /// Every report the package ships (fixtures, logs, the corpus copies), and the shared
    /// corpus when it is present.
    static var reports: [URL] {
        let fixtures = TestPaths.fixtures
        var urls: [URL] = []
        for folder in ["reports", "logs", "corpus", "named", "linux/logs", "linux-named/logs", "abort-paths/reports"] {
            let base = fixtures.appendingPathComponent(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: base.path) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") && name != "manifest.json" && !name.hasSuffix(".md") {
                var isFolder: ObjCBool = false
                let url = base.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue { urls.append(url) }
            }
        }
        urls += Corpus.allReports.map(Corpus.url)
        return urls
    }

    static func diagnoses(_ url: URL, _ language: Language) -> [Diagnosis] {
        guard let data = FileManager.default.contents(atPath: url.path),
            let reports = try? CrashReport.parseAll(data: data, path: url.path)
        else { return [] }
        return reports.map { diagnose($0, language: language) }
    }

    @Test func thereAreReports() {
        #expect(Self.reports.count >= 20)
    }

    /// Every prose text of a Japanese diagnosis, with where it is.
    static func prose(_ diagnosis: Diagnosis) -> [(place: String, text: String)] {
        var out: [(String, String)] = [("headline", diagnosis.headline)]
        out += diagnosis.causes.map { ("cause", $0.text) }
        out += diagnosis.nextSteps.map { ("step", $0) }
        out += diagnosis.notes.map { ("note", $0) }
        out += diagnosis.evidence.compactMap { item in item.note.map { ("evidence note (\(item.field))", $0) } }
        out += diagnosis.references.map { ("reference \($0.term)", $0.title) }
        return out
    }

    @Test(arguments: reports)
    func sameVerdictInEveryLanguage(_ url: URL) {
        let english = Self.diagnoses(url, .english)
        for language in Language.allCases where language != .english {
            let other = Self.diagnoses(url, language)
            #expect(other.count == english.count)
            for (en, translated) in zip(english, other) {
                #expect(translated.category == en.category, "\(url.lastPathComponent)")
                #expect(translated.certainty == en.certainty)
                #expect(translated.isFatal == en.isFatal)
                #expect(translated.language == language)
                // The same evidence (quotes of the report are never translated), causes and steps.
                #expect(translated.evidence.map(\.quote).count == en.evidence.count)
                #expect(translated.causes.map(\.likelihood) == en.causes.map(\.likelihood))
                #expect(translated.nextSteps.count == en.nextSteps.count)
                #expect(translated.notes.count == en.notes.count)
                #expect(translated.references.map(\.term) == en.references.map(\.term))
            }
        }
    }

    @Test(arguments: reports)
    func japaneseFromEndToEnd(_ url: URL) {
        for diagnosis in Self.diagnoses(url, .japanese) {
            for (place, text) in Self.prose(diagnosis) {
                #expect(CatalogTests.isJapanese(text), "\(url.lastPathComponent): \(place) is not Japanese: \(text)")
            }
        }
    }

    /// The summary a non-crash diagnosis leads with is the reader's own `kindSummary`, word for
    /// word, in English.
    @Test(arguments: reports)
    func summaryPhraseIsTheReportsSummary(_ url: URL) {
        guard let data = FileManager.default.contents(atPath: url.path),
            let reports = try? CrashReport.parseAll(data: data, path: url.path)
        else { return }
        for report in reports {
            guard let phrase = Diagnostician(report: report, base: .standard).summaryPhrase else { continue }
            #expect(phrase.english == report.kindSummary, "\(url.lastPathComponent)")
        }
    }

    @Test func englishIsTheDefault() throws {
        let url = TestPaths.fixtures.appendingPathComponent("reports/watchdog.ips")
        let report = try CrashReport.parse(contentsOf: url.path)
        #expect(diagnose(report).renderText() == diagnose(report, language: .english).renderText())
        #expect(diagnose(report).language == .english)
    }
}
