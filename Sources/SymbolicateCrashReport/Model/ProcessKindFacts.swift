import Foundation

/// The app extension types whose memory limits differ, by their `NSExtensionPointIdentifier`.
/// The raw value is the stable ID the JSON output carries.
public enum AppExtensionType: String, Sendable, Hashable, CaseIterable {
    case widget
    case today
    case notificationService = "notification-service"
    case notificationContent = "notification-content"
    case share
    case action
    case broadcastUpload = "broadcast-upload"
    case keyboard
    case packetTunnel = "packet-tunnel"
    case fileProvider = "file-provider"
    case intents
    case photoEditing = "photo-editing"

    /// The extension point as an extension's Info.plist names it.
    public var extensionPointIdentifier: String {
        switch self {
        case .widget: "com.apple.widgetkit-extension"
        case .today: "com.apple.widget-extension"
        case .notificationService: "com.apple.usernotifications.service"
        case .notificationContent: "com.apple.usernotifications.content-extension"
        case .share: "com.apple.share-services"
        case .action: "com.apple.ui-services"
        case .broadcastUpload: "com.apple.broadcast-services-upload"
        case .keyboard: "com.apple.keyboard-service"
        case .packetTunnel: "com.apple.networkextension.packet-tunnel"
        case .fileProvider: "com.apple.fileprovider-nonui"
        case .intents: "com.apple.intents-service"
        case .photoEditing: "com.apple.photo-editing"
        }
    }

    /// The type an extension point names, exactly.
    public init?(extensionPointIdentifier: String) {
        guard let type = Self.allCases.first(where: { $0.extensionPointIdentifier == extensionPointIdentifier }) else { return nil }
        self = type
    }

    /// The type Xcode's target templates name an extension after (`NotificationService.appex`,
    /// `BroadcastUploadExtension.appex`, `PacketTunnelProvider`…): the bundle's or process's
    /// name, letters only, lowercased, checked from the most specific word to the least.
    public init?(bundleName: String) {
        let name = String(bundleName.lowercased().filter(\.isLetter))
        func has(_ words: String...) -> Bool { words.allSatisfy { name.contains($0) } }
        if has("broadcast"), !has("setup") {
            self = .broadcastUpload
        } else if has("notification", "service") {
            self = .notificationService
        } else if has("notification", "content") {
            self = .notificationContent
        } else if has("tunnel") {
            self = .packetTunnel
        } else if has("fileprovider") {
            self = .fileProvider
        } else if has("keyboard") {
            self = .keyboard
        } else if has("photo", "edit") {
            self = .photoEditing
        } else if has("intent") {
            self = .intents
        } else if has("share") {
            self = .share
        } else if has("action") {
            self = .action
        } else if has("today") {
            self = .today
        } else if has("widget") {
            self = .widget
        } else {
            return nil
        }
    }
}

/// What kind of process a report is about, for its memory limit: an app, an app extension
/// (of a type, when the report shows which), or a watchOS app.
public enum ProcessKind: Sendable, Hashable {
    case app
    case appExtension(AppExtensionType?)
    case watchApp

    /// Stable ID: `app`, `watch-app`, `extension`, `extension/broadcast-upload`.
    public var identifier: String {
        switch self {
        case .app: "app"
        case .watchApp: "watch-app"
        case .appExtension(nil): "extension"
        case .appExtension(let type?): "extension/" + type.rawValue
        }
    }
}

/// The process's kind and what showed it.
public struct ProcessKindFact: Sendable, Hashable {
    public enum Evidence: Sendable, Hashable {
        /// The executable's path lies in a bundle (`…/Broadcast.appex/Broadcast`, `…/MyApp.app/MyApp`).
        case bundlePath(String)
        /// The report names the extension point (`NSExtensionPointIdentifier`).
        case extensionPoint(String)
        /// Only the process's name (a jetsam event report lists names, not paths).
        case processName(String)
    }

    public var kind: ProcessKind
    public var evidence: Evidence
    /// `Broadcast.appex`, when a bundle showed it.
    public var bundleName: String?

    public init(kind: ProcessKind, evidence: Evidence, bundleName: String? = nil) {
        self.kind = kind
        self.evidence = evidence
        self.bundleName = bundleName
    }

    /// From an executable's path: the innermost `.appex` bundle makes it an extension (its type
    /// from the bundle's name); an `.app` on watchOS, or inside a `Watch/` folder, a watch app.
    public static func from(path: String, isWatchOS: Bool) -> ProcessKindFact? {
        let components = path.split(separator: "/").map(String.init)
        if let appex = components.last(where: { $0.hasSuffix(".appex") }) {
            let name = String(appex.dropLast(".appex".count))
            // A WatchKit extension is the code of a watch app.
            if name.lowercased().containsBytes("watchkit") {
                return ProcessKindFact(kind: .watchApp, evidence: .bundlePath(path), bundleName: appex)
            }
            return ProcessKindFact(kind: .appExtension(AppExtensionType(bundleName: name)), evidence: .bundlePath(path), bundleName: appex)
        }
        guard let app = components.last(where: { $0.hasSuffix(".app") }) else { return nil }
        let inWatchFolder = components.contains("Watch")
        return ProcessKindFact(kind: isWatchOS || inWatchFolder ? .watchApp : .app, evidence: .bundlePath(path), bundleName: app)
    }

    /// From a name alone (a jetsam event's process): an extension type only when the name says
    /// one (`NotificationServiceExtension`); nil otherwise.
    public static func from(processName: String) -> ProcessKindFact? {
        guard let type = AppExtensionType(bundleName: processName) else { return nil }
        let lower = processName.lowercased()
        // A name that merely contains a word (`ShareMate`) is an app's; Xcode's extension
        // targets end in `Extension`, `Service`, `Provider` or the type's own word.
        guard ["extension", "service", "provider", "upload", "widget", "keyboard", "intents"].contains(where: lower.hasSuffix) else {
            return nil
        }
        return ProcessKindFact(kind: .appExtension(type), evidence: .processName(processName))
    }
}

extension CrashReport {
    /// The kind of the process the report is about (`ProcessKindFact`): from the executable's
    /// path (`Path:`, `procPath`, else the app image's path), else, for a jetsam event, from
    /// the killed process's name.
    public var processKind: ProcessKindFact? {
        let isWatchOS = operatingSystem?.platform == .watchOS || (hardwareModel ?? "").lowercased().hasPrefix("watch")
        if let point = headerFields.first(where: { $0.key == "NSExtensionPointIdentifier" })?.value,
            let type = AppExtensionType(extensionPointIdentifier: point.trimmingCharacters(in: .whitespaces))
        {
            return ProcessKindFact(kind: .appExtension(type), evidence: .extensionPoint(point))
        }
        let mainImagePath = binaryImages.first { image in
            image.isAppOwned && processName.map { name in image.path.map { ($0 as NSString).lastPathComponent == name } ?? false } ?? false
        }?.path
        for path in [processPath, mainImagePath].compactMap({ $0 }) {
            if let fact = ProcessKindFact.from(path: path, isWatchOS: isWatchOS) { return fact }
        }
        if kind == .jetsam, let victim = jetsamVictim { return ProcessKindFact.from(processName: victim.name) }
        return nil
    }

    /// The memory limit the report states, in bytes: a device log's typed limit
    /// (`exceeded mem limit: ActiveHard 77 MB`), `EXC_RESOURCE … (limit=50 MB, unused=0x0)`
    /// or `… high watermark memory limit exceeded) (limit=1450 MB)`.
    public var statedMemoryLimitBytes: UInt64? {
        if let megabytes = logEvents.compactMap(\.limitMB).first, megabytes > 0 { return UInt64(megabytes) << 20 }
        let texts = [exception?.type, exception?.signal, exception?.subtype, exception?.message, exception?.codes, termination?.text]
            .compactMap { $0 }
        for text in texts {
            guard let range = text.byteRange(of: "limit=") else { continue }
            let digits = text[range.upperBound...].prefix { $0.isNumber }
            guard let value = UInt64(digits) else { continue }
            let unit = text[range.upperBound...].dropFirst(digits.count).trimmingCharacters(in: .whitespaces).prefix(2).uppercased()
            switch unit {
            case "GB": return value << 30
            case "KB": return value << 10
            default: return value << 20
            }
        }
        return nil
    }
}
