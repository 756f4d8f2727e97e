import Foundation

/// The one user cache folder every cache of a run shares (downloaded debug files, unpacked zips,
/// the Xcode dSYM index), so they never disagree on where it is (issue 50).
package enum UserCacheFolder {
    /// `$XDG_CACHE_HOME/symbolicate` when that is an absolute path; else the platform's user
    /// cache: `~/Library/Caches/symbolicate` on macOS, `~/.cache/symbolicate` elsewhere; nil
    /// without a `$HOME`.
    package static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/symbolicate" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + platformSuffix
    }

    /// Below `$HOME`: the folder the platform keeps user caches in.
    package static var platformSuffix: String {
        #if os(macOS)
            "/Library/Caches/symbolicate"
        #else
            "/.cache/symbolicate"
        #endif
    }
}
