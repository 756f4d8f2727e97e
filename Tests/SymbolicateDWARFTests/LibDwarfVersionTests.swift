import Foundation
import Testing

@testable import SymbolicateDWARF

/// The package builds against libdwarf 20210528 (Debian 12) and 0.x/2.x (Homebrew; 0.11.1 in CI
/// through `make test-libdwarf-current`). These check that a test run used the libdwarf it meant to.
@Suite struct LibDwarfVersionTests {
    /// Headers of one libdwarf with the shared library of another would misread every struct
    /// the two exchange; this catches a link that picked the system's library instead of the
    /// one the headers came from.
    @Test func loadedLibraryIsTheOneTheHeadersDescribe() {
        let versions = LibDwarf.versions
        if let headers = versions.headers {
            #expect(versions.library == headers)
        } else {
            // The legacy API: only date-versioned libraries have it.
            #expect(versions.library.count == 8 && versions.library.allSatisfy(\.isNumber), "\(versions.library)")
        }
    }

    /// `scripts/test-libdwarf-current.sh` sets SYMBOLICATE_EXPECT_LIBDWARF to the version it
    /// built, so that run fails if it silently tested another libdwarf.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SYMBOLICATE_EXPECT_LIBDWARF"] != nil))
    func loadedLibraryIsTheExpectedOne() {
        let expected = ProcessInfo.processInfo.environment["SYMBOLICATE_EXPECT_LIBDWARF"]
        #expect(LibDwarf.versions.library == expected)
        #expect(LibDwarf.versions.headers == expected)
    }
}
