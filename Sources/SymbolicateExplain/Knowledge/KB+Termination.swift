// Termination (exit-reason) namespaces, their codes, the well-known magic codes,
// jetsam reasons and report types. Facts: project reference explain.md §1.2, §2.7, §4, §5.

extension KnowledgeBase {
    private static func ns(
        _ name: String, _ number: UInt64, _ title: String, _ meaning: String,
        causes: [String] = [], checkNext: [String] = [], sources: [Citation] = [.xnuReason],
        provenance: Provenance = .openSource, aliases: [String] = []
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: name, kind: .terminationNamespace, title: title, meaning: meaning,
            causes: causes, checkNext: checkNext, sources: sources, provenance: provenance,
            aliases: aliases + ["OS_REASON_\(name)", "Namespace \(name)"], values: [number])
    }

    static let namespaces: [KnowledgeEntry] = [
        ns(
            "JETSAM", 1, "Memory-pressure kill",
            "The memory-status subsystem (jetsam) killed the process to free memory; the code is a jetsam reason (e.g. 7 per-process-limit). There is no crash report for it: the system writes a JetsamEvent report (bug_type 298) that lists every process, marks the killed ones with a 'reason' (per-process-limit or highwater: the process crossed its own limit; vm-pageshortage, vm-thrashing, fc-thrashing: the whole system was short of memory) and gives their memory as rpages × pageSize.",
            causes: [
                "The killed process crossed its own memory limit (per-process-limit, highwater): a leak, or images, caches or buffers kept in memory",
                "The system ran short of memory while the process was in the background (vm-pageshortage, thrashing): it was chosen, not at fault",
            ],
            checkNext: [
                "Find the killed process in the JetsamEvent report (symbolicate explain REPORT names it, with its reason and size)",
                "per-process-limit: measure the footprint with Instruments (Allocations, Leaks, VM Tracker) on the device model in the report",
                "Respond to memory warnings by freeing caches; keep well below the limit (os_proc_available_memory() on iOS says how close the app is)",
                "Background kills for system pressure are expected: save state when entering the background so a relaunch restores it",
            ], sources: [.aJetsam, .xnuReason, .xnuMemorystatus, .wwdcKilled]),
        ns(
            "SIGNAL", 2, "Plain signal",
            "The process died from a signal; the code is the signal number and the indicator its strsignal() text. 'exc handler' as the terminating process means the signal came from the process's own exception — explain it through the exception type.",
            sources: [.xnuReason, .aSwift], provenance: .documented),
        ns(
            "CODESIGNING", 3, "Code-signing kill",
            "The kernel killed the process because its code signature did not validate. Codes: 1 Taskgated Invalid Signature, 2 Invalid Page, 3 Task Access Port, 4 Launch Constraint Violation.",
            causes: [
                "Binary modified after signing", "Entitlements not authorised by the provisioning profile (code 1)",
                "Writing to executable memory without JIT entitlement", "Launch constraints (code 4)",
            ],
            checkNext: ["codesign --verify --deep --strict", "Compare entitlements with the provisioning profile"]),
        ns(
            "HANGTRACER", 4, "Hang tracer", "The hang tracer terminated the process for an unresponsive main thread.",
            checkNext: ["Read the main thread's backtrace for blocking work"]),
        ns("TEST", 5, "Test", "Exit reason used for testing.", sources: [.xnuReason]),
        ns(
            "DYLD", 6, "Dynamic loader failure",
            "dyld could not start the process or load a library: codes 1 Library missing, 2 Wrong architecture, 3 Wrong version, 4 Symbol missing, 5 Code Signature, 6 Filesystem Sandbox, 7 Malformed Mach-O, 9 other. The backtrace is irrelevant ('terminated at launch; ignore backtrace').",
            causes: [
                "A framework linked but not embedded (Embed & Sign)", "Wrong runpath search paths (@executable_path/Frameworks)",
                "A binary built against a newer SDK or library than present at runtime",
            ],
            checkNext: [
                "Read the 'Library not loaded' / 'Symbol not found' lines",
                "otool -L on the binary; inspect the Frameworks folder of the exported IPA",
            ],
            sources: [.aFramework, .dyld], provenance: .documented),
        ns(
            "LIBXPC", 7, "XPC / launchd",
            "libxpc or launchd terminated the process; code 3 on an app extension is LAUNCH_HANG (the extension took too long to initialize)."
        ),
        ns(
            "OBJC", 8, "Objective-C runtime", "The Objective-C runtime aborted the process (e.g. a class that must be signed was not).",
            sources: [.xnuReason], provenance: .thirdParty),
        ns(
            "EXEC", 9, "exec failure",
            "The kernel failed to exec the binary (bad Mach-O, FairPlay decryption, 32-bit binary, wrong platform, security policy…). The code names the failure.",
            causes: [
                "Corrupt or wrongly encrypted binary (FairPlay on re-signed apps)", "32-bit binary", "Binary for the wrong platform",
                "Rosetta missing",
            ]),
        ns(
            "SPRINGBOARD", 10, "App lifecycle watchdog (SpringBoard/FrontBoard)",
            "The scene/lifecycle manager killed the app — usually the watchdog (0x8badf00d), but also VoIP (0xbaadca11), thermal (0xc00010ff) and security (0x2bad45ec) kills. Older reports print SPRINGBOARD, current ones FRONTBOARD with an RBSTerminateContext explanation.",
            checkNext: ["Look up the code; read the explanation text after the Termination Reason"],
            sources: [.aWatchdog, .xnuReason, .wwdcKilled], provenance: .documented, aliases: ["FRONTBOARD"]),
        ns(
            "TCC", 11, "Privacy (TCC) kill",
            "The app accessed privacy-protected data (camera, microphone, photos, contacts, location…) without the matching NS…UsageDescription key in its Info.plist; the message names the key.",
            causes: ["Missing usage-description key", "The key is in the app's Info.plist but not in the extension's"],
            checkNext: ["Add the named key to the right target's Info.plist"], provenance: .observed),
        ns("REPORTCRASH", 12, "ReportCrash", "Exit reason set by ReportCrash."),
        ns("COREANIMATION", 13, "Core Animation", "Core Animation terminated the process; its message is in the termination details."),
        ns("AGGREGATED", 14, "Aggregated", "Aggregated exit reason."),
        ns(
            "RUNNINGBOARD", 15, "Background-execution enforcement (RunningBoard)",
            "RunningBoard enforces process assertions and background execution: 0xdead10cc (locked file at suspension), 0x2182bad2/3/4 (background task, URL session, fetch overran), 0xd00d2bad, 0xbaddd15c, 0xc00010ff.",
            checkNext: ["Look up the code"], sources: [.aKill, .xnuReason], provenance: .documented, aliases: ["ASSERTIOND"]),
        ns("SKYWALK", 16, "Networking stack", "The Skywalk networking subsystem terminated the process."),
        ns("SETTINGS", 17, "Settings", "A settings change terminated the process (e.g. a privacy permission was revoked)."),
        ns(
            "LIBSYSTEM", 18, "libsystem fault",
            "A libsystem check failed: 1 thread parked/terminating while owning a workloop, 2 Application Triggered Fault (os_fault_with_payload), 3 SecInit initializer, 4 pthread_t corrupted, 5 Application Triggered Fault (os_log_fault). Faults 2 and 5 are usually simulated, non-fatal reports.",
            checkNext: [
                "Read the Application Specific Information message and the crashed thread for the call into the system library that failed its check"
            ],
            sources: [.xnuOSReason]),
        ns("FOUNDATION", 19, "Foundation", "Foundation terminated the process."),
        ns(
            "WATCHDOG", 20, "System service watchdog",
            "watchdogd killed a system service that stopped responding (e.g. WindowServer). Rarely relevant to apps.",
            provenance: .observed),
        ns("METAL", 21, "Metal", "Metal terminated the process; its message is in the termination details."),
        ns("WATCHKIT", 22, "WatchKit", "WatchKit terminated the process."),
        ns(
            "GUARD", 23, "Guard violation", "An EXC_GUARD violation; the code is the full packed guard code (type, flavor, target).",
            checkNext: ["Decode the code (symbolicate explain 'GUARD <code>')"], sources: [.xnuReason, .xnuPortGuards]),
        ns("ANALYTICS", 24, "Analytics", "Analytics exit reason."),
        ns("SANDBOX", 25, "Sandbox", "The sandbox terminated the process; its message is in the termination details."),
        ns("SECURITY", 26, "Security", "A security policy terminated the process."),
        ns(
            "ENDPOINTSECURITY", 27, "Endpoint Security",
            "An Endpoint Security client terminated the process (or the client was too slow to answer)."),
        ns("PAC_EXCEPTION", 28, "Pointer authentication", "A pointer-authentication exception terminated the process (arm64e)."),
        ns("BLUETOOTH_CHIP", 29, "Bluetooth chip", "Bluetooth chip exit reason."),
        ns(
            "PORT_SPACE", 30, "Mach port space full", "The process exceeded the system-wide per-process Mach port limit — a port leak.",
            causes: ["Leaked XPC connections, IOKit handles or run-loop sources"]),
        ns("WEBKIT", 31, "WebKit", "WebKit terminated the (web content) process."),
        ns("BACKLIGHTSERVICES", 32, "Backlight services watchdog", "Watchdog on display/backlight state machines; system processes only."),
        ns("MEDIA", 33, "Media", "Media exit reason.", sources: [.xnuReason]),
        ns("ROSETTA", 34, "Rosetta", "Rosetta translation terminated the process (e.g. unsupported instructions)."),
        ns("LIBIGNITION", 35, "libignition", "Early-boot libignition exit reason.", sources: [.xnuReason]),
        ns("BOOTMOUNT", 36, "Boot mount", "Boot-mount exit reason.", sources: [.xnuReason]),
        KnowledgeEntry(
            term: "CAROUSEL", kind: .terminationNamespace, title: "watchOS watchdog",
            meaning:
                "watchOS background-task watchdog, e.g. 'CAROUSEL, WatchConnectivity watchdog transgression. Exhausted wall time allowance of 15.00 seconds.'",
            checkNext: ["Do less work in the background task; finish within its allowance"],
            sources: [.aWatchdog], provenance: .documented),
    ]

    private static func code(
        _ namespace: String, _ value: UInt64, _ title: String, _ meaning: String,
        causes: [String] = [], checkNext: [String] = [], sources: [Citation], provenance: Provenance,
        aliases: [String] = []
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: "\(namespace) \(value)", kind: .namespaceCode, title: title, meaning: meaning,
            causes: causes, checkNext: checkNext, sources: sources, provenance: provenance,
            aliases: aliases, values: [value], namespace: namespace)
    }

    static let namespaceCodes: [KnowledgeEntry] =
        [
            code(
                "DYLD", 1, "Library missing", "dyld could not find a library the binary links against ('Library not loaded: …').",
                causes: [
                    "Framework not embedded in the app (Embed & Sign)", "Wrong LD_RUNPATH_SEARCH_PATHS",
                    "Architecture or app-thinning settings removed the library",
                ],
                checkNext: [
                    "Read 'Library not loaded', 'Referenced from' and the 'tried:' paths",
                    "Check the Frameworks folder of the exported app",
                ],
                sources: [.aFramework, .dyld], provenance: .documented, aliases: ["Library missing", "Library not loaded"]),
            code(
                "DYLD", 2, "Wrong architecture", "A library has no slice for this CPU architecture.",
                checkNext: ["lipo -info on the library; check ARCHS / EXCLUDED_ARCHS"], sources: [.dyld], provenance: .openSource,
                aliases: ["Wrong architecture"]),
            code(
                "DYLD", 3, "Wrong version", "A library's compatibility version is older than required.",
                sources: [.dyld], provenance: .openSource, aliases: ["Wrong version"]),
            code(
                "DYLD", 4, "Symbol missing", "A library loaded but a symbol the binary needs is not in it ('Symbol not found: …').",
                causes: [
                    "Built against a newer SDK or library than present at runtime (weak-link new APIs and check availability)",
                    "Mismatched prebuilt frameworks or module versions",
                ],
                checkNext: [
                    "Read 'Symbol not found', 'Referenced from' and 'Expected in'",
                    "Compare the deployment target with the API's availability",
                ],
                sources: [.dyld], provenance: .openSource, aliases: ["Symbol missing", "Symbol not found"]),
            code(
                "DYLD", 5, "Code signature", "dyld rejected a library's code signature.",
                sources: [.dyld], provenance: .openSource),
            code(
                "DYLD", 6, "Filesystem sandbox", "The sandbox blocked dyld from reading a library.",
                sources: [.dyld], provenance: .openSource),
            code(
                "DYLD", 7, "Malformed Mach-O", "A library's Mach-O file is malformed.",
                sources: [.dyld], provenance: .openSource),
            code(
                "DYLD", 9, "Other dyld failure", "Another dyld failure; read the message lines.",
                sources: [.dyld], provenance: .openSource),
            code(
                "CODESIGNING", 1, "Taskgated invalid signature",
                "The signature or entitlements were rejected (often entitlements not authorised by the provisioning profile).",
                sources: [.xnuReason], provenance: .openSource, aliases: ["Taskgated Invalid Signature"]),
            code(
                "CODESIGNING", 2, "Invalid page", "A code page failed signature validation when it was paged in.",
                causes: ["Binary modified after signing or replaced while running", "Writing to executable memory"],
                sources: [.xnuReason], provenance: .openSource, aliases: ["Invalid Page"]),
            code(
                "CODESIGNING", 3, "Task access port", "Code-signing check on task port access failed.",
                sources: [.xnuReason], provenance: .openSource),
            code(
                "CODESIGNING", 4, "Launch constraint violation", "The binary violated a launch constraint.",
                sources: [.xnuReason], provenance: .openSource),
            code(
                "LIBSYSTEM", 1, "Workloop still owned", "A thread parked or terminated while still owning a workloop.",
                sources: [.xnuOSReason], provenance: .openSource),
            code(
                "LIBSYSTEM", 2, "Application triggered fault",
                "os_fault_with_payload: a library reported a fault (e.g. FD_SET overflow); usually a simulated report.",
                sources: [.xnuOSReason], provenance: .openSource),
            code(
                "LIBSYSTEM", 3, "SecInit initializer", "The security initializer failed.",
                sources: [.xnuOSReason], provenance: .openSource),
            code(
                "LIBSYSTEM", 4, "pthread corruption", "pthread_t was corrupted — memory corruption.",
                sources: [.xnuOSReason], provenance: .openSource),
            code(
                "LIBSYSTEM", 5, "Application triggered fault (os_log_fault)",
                "A fault was logged with os_log_fault; usually a simulated report.",
                sources: [.xnuOSReason], provenance: .openSource),
            code(
                "LIBXPC", 3, "Extension launch hang",
                "LAUNCH_HANG: the app extension took too much time to initialize; extensions have no main, so the time is spent in static initializers and +load.",
                checkNext: ["Move work out of static initializers and +load", "Investigate like a watchdog termination"],
                sources: [.aAbort, .tn2151], provenance: .documented, aliases: ["LAUNCH_HANG"]),
        ] + execCodes

    private static let execCodes: [KnowledgeEntry] = [
        (1, "Bad Mach-O"), (2, "SUGID failure"), (3, "Activation thread state"), (4, "Stack allocation"),
        (5, "String initialization"), (6, "Copyout strings"), (7, "Copyout dynamic linker"), (8, "Security policy"),
        (9, "Task gated"), (10, "FairPlay decryption"), (11, "Decryption"), (12, "UPX (invalid Mach-O header)"),
        (13, "No 32-bit execution"), (14, "Binary with wrong platform"), (15, "Main FD allocation"),
        (16, "Copyout Rosetta"), (17, "Set dyld info"), (18, "Machine thread"), (19, "Bad posix_spawn attributes"),
    ].map { value, title in
        code("EXEC", value, title, "exec failed: \(title.lowercased()).", sources: [.xnuReason], provenance: .openSource)
    }

    private static func magic(
        _ hex: String, _ value: UInt64, _ title: String, _ meaning: String,
        causes: [String] = [], checkNext: [String] = [], sources: [Citation], provenance: Provenance,
        aliases: [String] = []
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: hex, kind: .terminationCode, title: title, meaning: meaning, causes: causes,
            checkNext: checkNext, sources: sources, provenance: provenance,
            aliases: aliases + [String(value)], values: [value])
    }

    static let terminationCodes: [KnowledgeEntry] = [
        magic(
            "0x8badf00d", 0x8bad_f00d, "Watchdog timeout (\"ate bad food\")",
            "The watchdog killed the app because it did not respond in time: during launch (scene-create), while updating its UI (scene-update, main thread busy), during a background transition or exit (process-exit). The code that used most of the time may already have finished.",
            causes: [
                "Synchronous networking on the main thread, including hidden cases: Data(contentsOf:), String(contentsOf:), reachability and DNS lookups",
                "Main-thread deadlock: DispatchQueue.main.sync from main, a semaphore or lock waited on the main thread",
                "Heavy work on the main thread: large JSON or model parsing, synchronous Core Data migration, Vision requests",
                "Too much work in application(_:didFinishLaunchingWithOptions:)",
            ],
            checkNext: [
                "Read the main thread's backtrace: semaphore_wait_trap, __ulock_wait, _dispatch_sync_f_slow, mach_msg_trap or a synchronous URL request show blocking",
                "Compare 'Elapsed application CPU time' with the wall-clock allowance: high CPU means busy computing, low means blocked waiting",
                "Profile launch with the App Launch / Time Profiler templates; move the work off the main thread",
            ],
            sources: [.aWatchdog, .aKill, .wwdcKilled], provenance: .documented, aliases: ["8badf00d", "ate bad food", "watchdog"]),
        magic(
            "0xc00010ff", 0xc000_10ff, "Thermal kill (\"cool off\")",
            "The system killed the app because of a thermal event; it may be specific to the device or its environment.",
            causes: ["Sustained heavy CPU/GPU use: camera, AR, ML, games", "A hot environment or a charging device"],
            checkNext: [
                "Observe ProcessInfo.thermalState and its change notification; reduce work (frame rate, camera, ML, location accuracy) when it reaches serious or critical",
                "Reproduce under heat with the thermal-state device condition in Xcode's Devices window (iOS devices)",
            ],
            sources: [.aKill, .wwdcKilled], provenance: .documented, aliases: ["c00010ff", "cool off"]),
        magic(
            "0xdead10cc", 0xdead_10cc, "Locked file at suspension (\"deadlock\")",
            "The app was suspended while holding a file lock or an SQLite database lock, typically on a database in a shared App Group container.",
            causes: [
                "SQLite / Core Data / Realm / GRDB write still in progress when the app or extension was suspended",
                "No background task requested around the write",
            ],
            checkNext: [
                "Request background time with beginBackgroundTask(withName:expirationHandler:) (extensions: ProcessInfo.beginActivity) before starting the write",
                "Finish and release the lock before suspension; look for another thread inside fsync / sqlite commit",
            ],
            sources: [.aKill], provenance: .documented, aliases: ["dead10cc", "deadlock"]),
        magic(
            "0xbaadca11", 0xbaad_ca11, "VoIP push without CallKit call (\"bad call\")",
            "The app received a PushKit VoIP push but did not report an incoming call to CallKit in time. Repeated failures can stop VoIP push delivery to the app.",
            causes: [
                "reportNewIncomingCall not called before the pushRegistry(_:didReceiveIncomingPushWith:for:completion:) callback returned",
                "An async hop or early return before reporting the call",
            ],
            checkNext: [
                "Report the call synchronously, before any async work, on every code path including background and locked launches"
            ],
            sources: [.aKill], provenance: .documented, aliases: ["baadca11", "bad call"]),
        magic(
            "0xbad22222", 0xbad2_2222, "VoIP app resumed too often",
            "A VoIP app was resumed too frequently (older reports: 'SBUnsuspendLimit … exceeded 15 wakes in 300 sec').",
            causes: ["Socket keep-alive or reconnect loops in the background"],
            checkNext: ["Check VoIP background modes and reconnect logic"],
            sources: [.aKill, .tn2151], provenance: .documented, aliases: ["bad22222"]),
        magic(
            "0xbaddd15c", 0xbadd_d15c, "Low disk space (\"bad disc\")",
            "The system killed the app while purging caches to reclaim disk space.",
            checkNext: ["Minimise what the app writes and manage file lifetimes"],
            sources: [.aKill], provenance: .documented, aliases: ["baddd15c"]),
        magic(
            "0xc51bad01", 0xc51b_ad01, "watchOS background task used too much CPU",
            "watchOS killed a background task that used too much CPU time.",
            checkNext: ["Make background work more CPU-efficient or do less"],
            sources: [.aKill, .tn2151], provenance: .documented, aliases: ["c51bad01", "0xc51bad0x", "c51bad0x"]),
        magic(
            "0xc51bad02", 0xc51b_ad02, "watchOS background task overran",
            "watchOS killed a background task that did not finish within its time allowance.",
            checkNext: ["Do less work in background tasks"],
            sources: [.aKill, .tn2151], provenance: .documented, aliases: ["c51bad02"]),
        magic(
            "0xc51bad03", 0xc51b_ad03, "watchOS background task starved",
            "A watchOS background task ran out of time while the system was busy; not necessarily the app's fault.",
            sources: [.aKill, .tn2151], provenance: .documented, aliases: ["c51bad03"]),
        magic(
            "0xd00d2bad", 0xd00d_2bad, "Excessive system resources (\"dude, too bad\")",
            "The app used key system resources excessively.",
            checkNext: ["Reduce parallelism and let earlier operations finish before starting new ones"],
            sources: [.aKill], provenance: .documented, aliases: ["d00d2bad"]),
        magic(
            "0x2182bad2", 0x2182_bad2, "Background task overran",
            "A background task started with beginBackgroundTask did not end before it expired.",
            causes: [
                "A beginBackgroundTask without a matching endBackgroundTask on some path", "The expiration handler does not end the task",
            ],
            checkNext: ["Pair every beginBackgroundTask with endBackgroundTask, including in the expiration handler"],
            sources: [.aKill], provenance: .documented, aliases: ["2182bad2"]),
        magic(
            "0x2182bad3", 0x2182_bad3, "Background URL session overran",
            "Background URLSession events were not handled, or their completion handler was not called, in time.",
            checkNext: ["Call the completion handler from urlSessionDidFinishEvents(forBackgroundURLSession:)"],
            sources: [.aKill], provenance: .documented, aliases: ["2182bad3"]),
        magic(
            "0x2182bad4", 0x2182_bad4, "Background fetch overran",
            "A background fetch did not call its completion handler in time.",
            checkNext: ["Call the background-fetch completion handler on every path"],
            sources: [.aKill], provenance: .documented, aliases: ["2182bad4"]),
        magic(
            "0x2bad45ec", 0x2bad_45ec, "Security violation / insecure drawing (\"too bad for security\")",
            "A security violation; with 'Process detected doing insecure drawing while in secure mode' the app drew while the device was locked or in a secure mode.",
            causes: [
                "Rendering (Metal, OpenGL, Core Animation) after willResignActive / didEnterBackground",
                "Video or AR pipelines that keep presenting frames",
            ],
            checkNext: ["Stop rendering when the app resigns active"],
            sources: [.tn2151], provenance: .archivedTechNote, aliases: ["2bad45ec"]),
        magic(
            "0xbaaaaaad", 0xbaaa_aaad, "Stackshot, not a crash",
            "Not a crash: a whole-system stackshot, often taken accidentally by pressing the side and volume buttons together.",
            sources: [.tn2151], provenance: .archivedTechNote, aliases: ["baaaaaad"]),
        magic(
            "0xdeadfa11", 0xdead_fa11, "User force quit (\"dead fall\")",
            "The user force-quit the app with an old iOS button gesture; app-switcher quits do not produce it. Only in third-party copies of an older TN2151; current Apple pages do not list it.",
            sources: [.tn2151], provenance: .thirdParty, aliases: ["deadfa11"]),
        magic(
            "0xfeedfacf", 0xfeed_facf, "Not a termination code (Mach-O magic)",
            "Not a crash reason: 0xfeedfacf is MH_MAGIC_64, the 64-bit Mach-O header magic number. Seeing it in a report usually means a header or image was read, not a termination reason.",
            sources: [.xnuExceptionTypes], provenance: .openSource, aliases: ["feedfacf", "MH_MAGIC_64"]),
        magic(
            "0xdeadfeed", 0xdead_feed, "Dependency timed out while spawning (unverified)",
            "Reported by third parties as: a service the process depends on timed out while spawning. Not in Apple documentation.",
            sources: [.tn2151], provenance: .thirdParty, aliases: ["deadfeed"]),
    ]

    private static func jetsam(
        _ value: UInt64, _ name: String, _ meaning: String,
        provenance: Provenance = .openSource
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: name, kind: .jetsamReason, title: "Jetsam: \(name)", meaning: meaning,
            checkNext: ["Read the JetsamEvent report: the killed process has a 'reason' key; memory = rpages × pageSize"],
            sources: [.aJetsam, .xnuMemorystatus], provenance: provenance,
            aliases: ["JETSAM \(value)", "JETSAM_REASON_\(name.uppercased().replacingOccurrences(of: "-", with: "_"))"],
            values: [value], namespace: "JETSAM")
    }

    static let jetsamReasons: [KnowledgeEntry] = [
        jetsam(1, "generic", "Generic memory-pressure kill."),
        jetsam(2, "highwater", "A daemon exceeded its expected memory footprint (high-water mark).", provenance: .documented),
        jetsam(
            3, "vnode-limit", "Too many open files system-wide; it may hit a background app that is not at fault.", provenance: .documented),
        jetsam(
            4, "vm-pageshortage", "The system needed memory for the foreground app and killed this (usually background) process.",
            provenance: .documented),
        jetsam(5, "proc-thrashing", "Process thrashing."),
        jetsam(6, "fc-thrashing", "File-cache thrashing, e.g. random access to large memory-mapped files.", provenance: .documented),
        jetsam(
            7, "per-process-limit", "The process crossed its own resident-memory limit; app extensions have far lower limits than apps.",
            provenance: .documented),
        jetsam(8, "disk-space-shortage", "Killed because disk space ran short."),
        jetsam(9, "idle-exit", "An idle process was exited to free memory."),
        jetsam(10, "zone-map-exhaustion", "Kernel zone map exhaustion."),
        jetsam(11, "vm-compressor-thrashing", "The memory compressor was thrashing."),
        jetsam(12, "vm-compressor-space-shortage", "The memory compressor ran out of space."),
        jetsam(13, "lowswap", "Swap space ran low."),
        jetsam(14, "sustained-pressure", "Sustained memory pressure."),
        jetsam(15, "vm-pageout-starvation", "Page-out starvation."),
        jetsam(16, "conclave-limit", "Conclave memory limit."),
        jetsam(17, "long-idle-exit", "A long-idle process was exited."),
        jetsam(100, "cpulimit", "CPU limit kill through the memory-status subsystem."),
        KnowledgeEntry(
            term: "jettisoned", kind: .jetsamReason, title: "Jetsam: jettisoned",
            meaning: "Killed by jetsam for another reason than the named ones.",
            sources: [.aJetsam], provenance: .documented, namespace: "JETSAM"),
    ]

    private static func report(
        _ type: UInt64, _ title: String, _ meaning: String,
        provenance: Provenance = .documented
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: "bug_type \(type)", kind: .reportType, title: title, meaning: meaning,
            sources: [.aJSON], provenance: provenance, values: [type])
    }

    static let reportTypes: [KnowledgeEntry] = [
        report(309, "Crash report", "A crash report (full corpse)."),
        report(308, "Lightweight crash (OSFault)", "A crash from a lightweight corpse or os_fault.", provenance: .observed),
        report(385, "EXC_RESOURCE report", "A resource-limit report (ExcResource_…); usually not a crash.", provenance: .observed),
        report(327, "EXC_RESOURCE THREADS report", "A thread-limit resource report.", provenance: .observed),
        report(
            298, "Jetsam event report",
            "Not a crash report: a whole-system memory snapshot written when jetsam killed processes for memory. The killed process has a 'reason' key.",
        ),
        report(288, "Stackshot", "Not a crash: a whole-system stackshot."),
        report(210, "Kernel panic", "The whole system panicked, not an app."),
        report(409, "System watchdog", "A userspace watchdog report about an unresponsive system service.", provenance: .observed),
        report(
            202, "CPU-usage microstackshot", "A CPU-usage diagnostic (cpu_resource); the process may or may not have been killed.",
            provenance: .observed),
        report(145, "Disk-writes microstackshot", "A disk-writes diagnostic (diskwrites_resource); not a crash.", provenance: .observed),
        report(
            109, "Legacy crash report", "A legacy crash report: text body with a JSON header (iOS 14 and earlier).", provenance: .observed),
    ]
}
