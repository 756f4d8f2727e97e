import Foundation
import SymbolicateCrashReport

/// Memory limits by kind of process (issue 41): an app's depends on the device, an app
/// extension's is far lower and differs by type, a watch app's is lower still. Apple documents
/// that extensions have lower limits and how to measure; the figures for each type are what
/// developers observe (they change with OS versions and devices), so those entries say so.
extension Citation {
    static let extensionGuide = Citation(
        key: "APPEXT", title: "App Extension Programming Guide: memory limits for app extensions are lower than for apps (archived)",
        url: "https://developer.apple.com/library/archive/documentation/General/Conceptual/ExtensibilityPG/ExtensionCreation.html")
    static let availableMemory = Citation(
        key: "OS-PROC-MEM", title: "os_proc_available_memory()",
        url: "https://developer.apple.com/documentation/os/os_proc_available_memory")
    static let reducingMemory = Citation(
        key: "A-MEMUSE", title: "Reducing your app's memory use",
        url: "https://developer.apple.com/documentation/xcode/reducing-your-app-s-memory-use")
    static let gatheringMemory = Citation(
        key: "A-MEMINFO", title: "Gathering information about memory use",
        url: "https://developer.apple.com/documentation/xcode/gathering-information-about-memory-use")
}

/// The limit a kind of process has, as far as anyone can say: a figure in MB when developers
/// have observed one (`nil` when none is known), and the knowledge-base entry that explains it.
struct MemoryLimit: Sendable {
    let kind: ProcessKind
    /// Observed limit in MB (the lower and upper figures reported across OS versions).
    let megabytes: ClosedRange<Int>?
    var term: String { KnowledgeBase.memoryLimitTerm(kind) }

    static let table: [MemoryLimit] = [
        MemoryLimit(kind: .app, megabytes: nil),
        MemoryLimit(kind: .watchApp, megabytes: nil),
        MemoryLimit(kind: .appExtension(nil), megabytes: nil),
        MemoryLimit(kind: .appExtension(.broadcastUpload), megabytes: 50...50),
        MemoryLimit(kind: .appExtension(.notificationService), megabytes: 24...24),
        MemoryLimit(kind: .appExtension(.notificationContent), megabytes: nil),
        MemoryLimit(kind: .appExtension(.widget), megabytes: 30...30),
        MemoryLimit(kind: .appExtension(.today), megabytes: 16...32),
        MemoryLimit(kind: .appExtension(.share), megabytes: 120...120),
        MemoryLimit(kind: .appExtension(.action), megabytes: 120...120),
        MemoryLimit(kind: .appExtension(.keyboard), megabytes: 48...70),
        MemoryLimit(kind: .appExtension(.packetTunnel), megabytes: 15...50),
        MemoryLimit(kind: .appExtension(.fileProvider), megabytes: nil),
        MemoryLimit(kind: .appExtension(.intents), megabytes: nil),
        MemoryLimit(kind: .appExtension(.photoEditing), megabytes: nil),
    ]

    static func of(_ kind: ProcessKind) -> MemoryLimit? { table.first { $0.kind == kind } }
}

extension KnowledgeBase {
    /// `memory limit: <kind ID>`: the term a kind's entry is found by.
    static func memoryLimitTerm(_ kind: ProcessKind) -> String { "memory limit: " + kind.identifier }

    private static func limit(
        _ kind: ProcessKind, _ title: String, _ meaning: String, causes: [String] = [], steps: [String] = [],
        provenance: Provenance = .observed, aliases: [String] = []
    ) -> KnowledgeEntry {
        let typeAlias: [String] =
            if case .appExtension(let type?) = kind { [type.extensionPointIdentifier] } else { [] }
        return KnowledgeEntry(
            term: memoryLimitTerm(kind), kind: .memoryLimit, title: title, meaning: meaning, causes: causes, checkNext: steps,
            sources: [.extensionGuide, .availableMemory, .gatheringMemory], provenance: provenance, aliases: aliases + typeAlias)
    }

    static let memoryLimits: [KnowledgeEntry] = [
        limit(
            .app, "App memory limit",
            "An app's limit depends on the device's memory and the OS version; Apple publishes no figures. os_proc_available_memory() tells the app how far it is from its limit at run time.",
            causes: ["Memory growth in the app: a leak, images decoded at full size, caches without a bound"],
            steps: ["Measure with Xcode's memory gauge and Instruments (Allocations, Leaks) on the device model of the report"],
            provenance: .documented),
        limit(
            .watchApp, "watchOS app memory limit",
            "A watch app runs with far less memory than an iPhone app, and its limit depends on the watch model and whether it is in the foreground; Apple publishes no figures.",
            steps: ["Measure on the oldest watch model you support, with Instruments' Allocations"]),
        limit(
            .appExtension(nil), "App extension memory limit",
            "An app extension's memory limit is much lower than an app's (Apple documents this), and it differs by extension type; the extension is ended without a warning when it passes it.",
            steps: ["Attach the debugger to the extension's process and watch Xcode's memory gauge while it runs"],
            provenance: .documented),
        limit(
            .appExtension(.broadcastUpload), "Broadcast upload extension memory limit (about 50 MB)",
            "A ReplayKit broadcast upload extension is ended at about 50 MB: every video and audio sample buffer it holds or converts counts against it.",
            causes: ["Sample buffers kept, copied or converted faster than they are sent (a queue that grows while the network is slow)"],
            steps: [
                "Drop frames when the upload falls behind instead of queueing them, and encode from the sample buffer without extra copies"
            ]),
        limit(
            .appExtension(.notificationService), "Notification service extension memory limit (about 24 MB)",
            "A notification service extension is ended at about 24 MB: downloading or decoding an attachment in memory is the usual cause.",
            causes: ["An attachment (image, video) downloaded or decoded in memory"],
            steps: ["Download attachments to a file (URLSession download tasks) and hand the file to the notification without decoding it"]),
        limit(
            .appExtension(.notificationContent), "Notification content extension memory limit",
            "A notification content extension has an extension's low limit; no figure is observed reliably.",
            steps: ["Load media for the notification's view at the size it is shown"]),
        limit(
            .appExtension(.widget), "Widget extension memory limit (about 30 MB)",
            "A WidgetKit extension is ended at about 30 MB while it builds its timeline and views: large images are the usual cause.",
            causes: ["Images loaded at full size for a small widget, or too many timeline entries built at once"],
            steps: ["Downscale images to the widget's size before handing them to the view, and keep the timeline short"]),
        limit(
            .appExtension(.today), "Today widget memory limit (about 16–32 MB)",
            "A Today (Notification Center) widget is ended at about 16 MB on older systems and about 32 MB on later ones.",
            steps: ["Downscale images and avoid loading the host app's data stores whole"]),
        limit(
            .appExtension(.share), "Share extension memory limit (about 120 MB)",
            "A share extension is ended at about 120 MB: loading every shared item (photos, videos) into memory at once is the usual cause.",
            causes: ["Shared items (photos, videos) loaded into memory whole, all at once"],
            steps: ["Load shared items as files (loadFileRepresentation) one at a time, and downscale images for previews"]),
        limit(
            .appExtension(.action), "Action extension memory limit (about 120 MB)",
            "An action extension has the same order of limit as a share extension, about 120 MB.",
            steps: ["Process the input items one at a time, as files"]),
        limit(
            .appExtension(.keyboard), "Custom keyboard memory limit (about 48–70 MB)",
            "A custom keyboard is ended at about 48 MB on older systems (about 70 MB on later ones): dictionaries and prediction models loaded whole are the usual cause.",
            causes: ["A dictionary or prediction model loaded into memory whole"],
            steps: ["Memory-map large read-only data (Data with .alwaysMapped) instead of reading it into memory"]),
        limit(
            .appExtension(.packetTunnel), "Packet tunnel provider memory limit (about 15–50 MB)",
            "A Network Extension packet tunnel provider was ended at about 15 MB before iOS 15 and about 50 MB since: packet buffers and per-connection state count against it.",
            causes: ["Packets buffered faster than they are written, or per-connection state that is never released"],
            steps: ["Bound the packet queues and release per-connection state when flows close"]),
        limit(
            .appExtension(.fileProvider), "File provider extension memory limit",
            "A file provider extension has an extension's low limit; no figure is observed reliably. Reading whole files into memory is the usual cause.",
            steps: ["Stream file contents instead of reading whole files into memory"]),
        limit(
            .appExtension(.intents), "Intents extension memory limit",
            "A Siri or Shortcuts intents extension has an extension's low limit; no figure is observed reliably.",
            steps: ["Avoid loading the host app's whole data store to answer one intent"]),
        limit(
            .appExtension(.photoEditing), "Photo editing extension memory limit",
            "A photo editing extension has an extension's limit; full-resolution images and their filtered copies count against it.",
            steps: ["Work on the display-sized image while editing and render full resolution once, at the end"]),
    ]
}
