import SymbolicateCore

/// What a binary is in its build: decides whether `--require` asks for its debug information.
public enum BinaryRole: String, Sendable, Equatable, CaseIterable, Codable {
    /// The executable of an `.app` bundle: the app, its App Clip (`AppClips/`), its watch app.
    case app
    /// The executable of an app extension (`.appex`) or an XPC service (`.xpc`).
    case appExtension = "extension"
    /// The binary of a `.framework`.
    case framework
    /// A loose `.dylib` (`Frameworks/libfoo.dylib`).
    case dylib
    /// Any other Mach-O: a plug-in `.bundle`, a helper tool.
    case other
}

/// `--require`: which of the team's binaries must have their debug information for the run
/// to succeed. Apple's binaries are never required.
public enum AuditRequirement: String, Sendable, Equatable, CaseIterable {
    case app
    case appAndExtensions = "app+extensions"
    /// Everything in the build that is not Apple's.
    case all

    public func requires(_ role: BinaryRole) -> Bool {
        switch self {
        case .app: return role == .app
        case .appAndExtensions: return role == .app || role == .appExtension
        case .all: return true
        }
    }
}

/// Where the only names of a binary without DWARF come from.
public enum SymbolTableSource: String, Sendable, Equatable, Codable {
    /// The binary was not stripped: its own symbol table names its functions.
    case binary
    /// A debug file with the binary's UUID but no DWARF (a dSYM made from a build without `-g`).
    case debugFile = "debug-file"
}

/// What one architecture slice of one binary has for symbolication: the answer audit gives.
public enum DebugInfoStatus: Sendable, Equatable {
    /// A debug file with the same UUID and DWARF: functions, files and lines.
    case dwarf(compileUnits: Int)
    /// The same, found under another file name (the product was renamed after its dSYM was made).
    case renamed(compileUnits: Int, debugFileName: String)
    /// A debug file matched, but its names are bitcode-hidden (`__hidden#12_`): readable only
    /// with the build's BCSymbolMaps (`symbolMap`: the one found, else nil).
    case bitcodeHidden(compileUnits: Int, symbolMap: String?)
    /// Names but no files or lines: the binary's own symbol table, or a debug file without DWARF.
    case symbolTableOnly(SymbolTableSource)
    /// No debug file has the UUID, but one of the same name has another: a dSYM of another build.
    case otherBuild(nearest: DebugID, nearestArchitecture: Architecture, nearestPath: String)
    /// No debug file anywhere, and the binary's symbol table keeps exported names only.
    case stripped
    /// The slice has no LC_UUID: no crash report can name a debug file for it.
    case noUUID
    /// Apple's code (a Swift runtime copy Xcode embedded, Xcode's `__preview.dylib`): needs no
    /// debug file from the team.
    case apple
    /// No dSYM, but the binary's debug map names the object files that keep its DWARF (a Debug
    /// build, `DEBUG_INFORMATION_FORMAT = dwarf`): files and lines while those objects stay as
    /// they were linked. `unusable`: the objects missing or changed since the link.
    case debugMap(objects: Int, unusable: [UnusableObject])
    /// Xcode 16+'s Debug stub executable (`ENABLE_DEBUG_DYLIB`): Apple's blank executor, whose
    /// only job is to open `dylib` (`MyApp.debug.dylib`), which holds the app's code and is
    /// audited under its own UUID.
    case debugStub(dylib: String)
    /// A file of the build that may be a binary but could not be read (damaged, or left in an
    /// `.ipa` by the unpack limit): nothing is known of it, so the gate fails whatever
    /// `--require` says (issue 54, finding 8: a warning alone let the gate pass).
    case unreadable(reason: String)

    /// The stable name used in JSON, JUnit and annotations.
    public var kind: String {
        switch self {
        case .dwarf: return "dwarf"
        case .renamed: return "renamed"
        case .bitcodeHidden: return "bitcode-hidden"
        case .symbolTableOnly: return "symbol-table-only"
        case .otherBuild: return "other-build"
        case .stripped: return "stripped"
        case .noUUID: return "no-uuid"
        case .apple: return "apple"
        case .debugMap: return "debug-map"
        case .debugStub: return "debug-stub"
        case .unreadable: return "unreadable"
        }
    }

    /// Whether a crash in this slice would be fully symbolicated (files and lines), or needs
    /// nothing from the team.
    public var isComplete: Bool {
        switch self {
        case .dwarf, .renamed, .apple, .debugStub: return true
        case .bitcodeHidden(_, let map): return map != nil
        case .debugMap(_, let unusable): return unusable.isEmpty
        case .symbolTableOnly, .otherBuild, .stripped, .noUUID, .unreadable: return false
        }
    }

    /// Compile units of the matched DWARF, when there is one.
    public var compileUnits: Int? {
        switch self {
        case .dwarf(let units), .renamed(let units, _), .bitcodeHidden(let units, _): return units
        default: return nil
        }
    }
}

/// An object file a debug map names that cannot give its DWARF.
public struct UnusableObject: Sendable, Equatable {
    public enum Reason: String, Sendable, Equatable, Codable {
        /// Not at its recorded path, under an `--object-path-map` prefix, or beside the binary.
        case missing
        /// Its modification time is not the one the map records: rebuilt since the link.
        case modified
        /// Not a readable Mach-O object of the binary's architecture.
        case unreadable
    }

    /// The object as the debug map records it (`/…/Build/Intermediates.noindex/…/main.o`,
    /// `…/libX.a(member.o)`).
    public var object: String
    public var reason: Reason

    public init(object: String, reason: Reason) {
        self.object = object
        self.reason = reason
    }
}

/// What `--collect`/`--collect-zip` did with a slice that has no dSYM, only a debug map.
public enum CollectOutcome: Sendable, Equatable {
    /// Linked into a dSYM by `dsymutil` (the tool run), checked, and collected.
    case linked(dsymutil: String)
    /// Not collected, and why: objects missing or changed, no dsymutil, its link failed or
    /// what it made did not check out.
    case notCollected(reason: String)
}

/// The code signature of a binary, as read from its CodeDirectory.
public enum SignatureTeam: Sendable, Equatable {
    case unsigned
    /// Signed without a team identifier: ad hoc (the linker's own signature), or Apple's.
    case none
    case team(String)

    public var text: String {
        switch self {
        case .unsigned: return "unsigned"
        case .none: return "no team"
        case .team(let id): return id
        }
    }
}

/// One architecture slice of one binary of the build, and what audit found for it.
public struct AuditFinding: Sendable, Equatable {
    /// The binary's path inside the build, as people name it (`Shop.app/Frameworks/Ads.framework/Ads`).
    public var binary: String
    public var role: BinaryRole
    public var architecture: Architecture
    public var uuid: DebugID?
    /// LC_ID_DYLIB (`@rpath/Ads.framework/Ads`); nil for executables.
    public var installName: String?
    public var signature: SignatureTeam
    public var status: DebugInfoStatus
    /// The matched debug file as the user knows it (`Shop.xcarchive/dSYMs/Shop.app.dSYM`).
    public var debugFile: String?
    /// Whether `--require` asks for this slice's debug information.
    public var required: Bool
    /// What `--collect`/`--collect-zip` did with a slice that has only a debug map; nil when
    /// nothing was collected or the slice has no debug map.
    public var collection: CollectOutcome? = nil

    /// The slice makes the run fail: required and incomplete, or (collecting) a debug-mapped
    /// slice whose dSYM could not be made: what the build needs would not be kept.
    public var fails: Bool { required && !isSatisfied }

    /// Complete, and collected when a collection was asked for.
    public var isSatisfied: Bool {
        if case .notCollected = collection { return false }
        return status.isComplete
    }

    /// The binary's file name (`Ads`).
    public var name: String { binary.split(separator: "/").last.map(String.init) ?? binary }
}

/// The whole answer for one build: every slice, in the build's order (apps, then what they contain).
public struct AuditReport: Sendable, Equatable {
    /// BUILD as given.
    public var build: String
    public var buildKind: BuildKind
    public var requirement: AuditRequirement
    public var findings: [AuditFinding]
    /// Debug files read (entries of the index), for the closing line.
    public var debugFilesRead: Int

    public enum BuildKind: String, Sendable, Equatable, Codable {
        case archive = "xcarchive"
        case ipa
        case app
        case folder
    }

    public var failing: [AuditFinding] { findings.filter(\.fails) }
    public var binaryCount: Int { Set(findings.map(\.binary)).count }
}
