import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// The diagnosis reads what the parser carried in the model, whatever the file's encoding:
/// it never decodes or re-parses the report text itself.
@Suite struct CarriedFactsTests {
    /// A real crash `.ips` (SIGSEGV) with `"isNonFatal" : true` added as the body's first member,
    /// the way ReportCrash writes non-fatal reports.
    static func nonFatalIPS() throws -> String {
        let url = Corpus.bundled("2501osx__sigsegv_osaurus-mlx_mac16-5_macos26-3.ips")
        let text = try String(contentsOf: url, encoding: .utf8)
        let headerEnd = try #require(text.firstIndex(of: "\n"))
        let bodyOpen = try #require(text[headerEnd...].firstIndex(of: "{"))
        var copy = text
        copy.insert(contentsOf: "\n  \"isNonFatal\" : true,", at: copy.index(after: bodyOpen))
        return copy
    }

    /// The bytes of `text` as saved by an editor: UTF-8, or UTF-16 with its byte order mark.
    static func encode(_ text: String, as encoding: String.Encoding) throws -> Data {
        switch encoding {
        case .utf16LittleEndian: return Data([0xFF, 0xFE]) + (try #require(text.data(using: .utf16LittleEndian)))
        case .utf16BigEndian: return Data([0xFE, 0xFF]) + (try #require(text.data(using: .utf16BigEndian)))
        default: return Data(text.utf8)
        }
    }

    static let encodings: [String.Encoding] = [.utf8, .utf16LittleEndian, .utf16BigEndian]

    @Test(arguments: encodings)
    func nonFatalIPSIsNotFatalInAnyEncoding(encoding: String.Encoding) throws {
        let data = try Self.encode(Self.nonFatalIPS(), as: encoding)
        let report = try CrashReport.parse(data: data, path: "nonfatal.ips")
        #expect(report.exception?.nonFatalNote == "NON-FATAL CONDITION (this is NOT a crash)")
        let diagnosis = diagnose(report)
        #expect(!diagnosis.isFatal, "\(encoding): \(diagnosis.headline)")
        #expect(diagnosis.hasEvidence("Exception Note: NON-FATAL CONDITION (this is NOT a crash)"))
    }

    @Test(arguments: encodings)
    func theSameReportWithoutTheFlagIsFatal(encoding: String.Encoding) throws {
        let url = Corpus.bundled("2501osx__sigsegv_osaurus-mlx_mac16-5_macos26-3.ips")
        let data = try Self.encode(try String(contentsOf: url, encoding: .utf8), as: encoding)
        let diagnosis = diagnose(try CrashReport.parse(data: data, path: "fatal.ips"))
        #expect(diagnosis.isFatal)
        #expect(diagnosis.category == .nilDereference)
    }

    /// Text reports: the free lines after `Termination Reason:` are carried as details
    /// (zqqf16-sym TCC report translated by Apple: the usage-description text follows the reason).
    @Test func textTerminationDetailsAreCarried() throws {
        let url = Corpus.bundled("zqqf16-sym__tcc-abort_iphone13-4_ios15-2_apple-converted.crash")
        let report = try CrashReport.parse(contentsOf: url.path)
        let details = try #require(report.termination?.details)
        #expect(details.contains { $0.contains("NSCameraUsageDescription") })
        #expect(!details.contains { $0.hasPrefix("Triggered by Thread") || $0.hasPrefix("Exception") })
    }
}
