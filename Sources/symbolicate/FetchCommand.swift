// Built with the AppStoreConnect trait (on by default); without it BuildTraits.swift names the trait instead.
#if AppStoreConnect
    import ArgumentParser
    import Foundation
    import SymbolicateAppStoreConnect
    import SymbolicateDiscovery
    import SymbolicatePipeline

    /// `symbolicate fetch`: an app's TestFlight crash logs and diagnostic logs from App Store Connect.
    struct FetchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Download an app's TestFlight crash logs and diagnostic logs from App Store Connect.",
            discussion: """
                Signs in with an App Store Connect API key (an ES256 token from the .p8 file, renewed \
                before it expires and after a 401; the key is never printed or logged) and downloads, \
                for --app (and --app-version, --since, --until): the crash logs of TestFlight testers' \
                crash submissions (--kind crashes) and the logs of the builds' diagnostic signatures: \
                hangs, disk writes, launches (--kind diagnostics), both by default. Each is one file \
                in --output named DATE-crash-ID.crash (.ips) or DATE-diagnostic-BUILD-TYPE-ID.json, so \
                names sort by date (a crash's submission date, a diagnostic's build upload date); a \
                file already there is not downloaded again, and files are written whole (a temporary \
                file, then a rename), so an interrupted run is resumed by running it again. \
                Collections are read page by page; a 429 answer is waited out as Retry-After says \
                (at most 60 s, five times); App Store Connect's errors are shown as its words with \
                the status. --symbolicate runs the folder's reports through batch (output in \
                OUTPUT/symbolicated, with summary.md) and prints its summary line. \
                Built from the App Store Connect API's OpenAPI description \(AppStoreConnectSpec.openAPIVersion). \
                SYMBOLICATE_APP_STORE_CONNECT_URL replaces the API's address (https, or http to \
                127.0.0.1 or localhost).

                Exit codes: 0 done; 1 App Store Connect refused or did not answer (what was \
                downloaded stays), or --symbolicate's batch failed; 64 usage error (missing or \
                unusable key, a bad date, an unknown app or version); 73 the output folder cannot \
                be written.
                """
        )

        @Option(help: ArgumentHelp("The API key's id (default: $APP_STORE_CONNECT_KEY_ID).", valueName: "id"))
        var keyID: String?

        @Option(help: ArgumentHelp("The API key's issuer id (default: $APP_STORE_CONNECT_ISSUER_ID).", valueName: "uuid"))
        var issuerID: String?

        @Option(
            help: ArgumentHelp(
                "The API key's .p8 file, a PKCS#8 PEM P-256 key (default: $APP_STORE_CONNECT_KEY_PATH).", valueName: "path"))
        var privateKey: String?

        @Option(help: ArgumentHelp("The app: its App Store Connect id (digits) or its bundle id.", valueName: "app"))
        var app: String

        // Not `--version`: ArgumentParser takes that for the tool's own version on every subcommand.
        @Option(help: ArgumentHelp("Only builds of this app version (CFBundleShortVersionString).", valueName: "version"))
        var appVersion: String?

        @Option(
            help: ArgumentHelp(
                "Only what is this recent: YYYY-MM-DD (UTC) or an ISO 8601 date and time (crashes by submission date, diagnostics by build upload date).",
                valueName: "date"))
        var since: String?

        @Option(
            help: ArgumentHelp("Only what is not newer: YYYY-MM-DD (the whole day, UTC) or an ISO 8601 date and time.", valueName: "date"))
        var until: String?

        @Option(help: "What to download: crashes, diagnostics or all.")
        var kind: FetchKind = .all

        @Option(name: [.short, .customLong("output")], help: "Folder the logs are written to (created if missing).")
        var output: String

        @Option(
            name: .customLong("symbolicate"), parsing: .upToNextOption,
            help: ArgumentHelp(
                "Then symbolicate the folder's reports with these dSYM bundles, folders, .xcarchive or .zip files (SYMBOLICATE_DSYM_PATH is searched too) through batch.",
                valueName: "dsyms"))
        var symbolicate: [String] = []

        @Flag(name: .customLong("quiet"), help: "No line per file downloaded or skipped on stderr.")
        var quiet = false

        func validate() throws {
            if let since, FetchDates.parse(since, endOfDay: false) == nil {
                throw ValidationError("--since \(since): not YYYY-MM-DD or an ISO 8601 date and time")
            }
            if let until, FetchDates.parse(until, endOfDay: true) == nil {
                throw ValidationError("--until \(until): not YYYY-MM-DD or an ISO 8601 date and time")
            }
            if let since, let until, let from = FetchDates.parse(since, endOfDay: false), let to = FetchDates.parse(until, endOfDay: true),
                from > to
            {
                throw ValidationError("--since \(since) is after --until \(until)")
            }
            if app.isEmpty { throw ValidationError("--app is empty") }
        }

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            func value(_ option: String?, _ variable: String, _ flag: String) throws -> String {
                guard let found = option ?? environment[variable], !found.isEmpty else {
                    throw ValidationError("\(flag) or \(variable) is needed: the App Store Connect API key")
                }
                return found
            }
            let key: AppStoreConnectKey
            do {
                key = try AppStoreConnectKey.load(
                    keyID: try value(keyID, "APP_STORE_CONNECT_KEY_ID", "--key-id"),
                    issuerID: try value(issuerID, "APP_STORE_CONNECT_ISSUER_ID", "--issuer-id"),
                    privateKeyPath: try value(privateKey, "APP_STORE_CONNECT_KEY_PATH", "--private-key"))
            } catch let error as AppStoreConnectError {
                try Console.finish([FetchMessage.failure(error)], standardOutput: nil, status: error.exitStatus)
                return
            }
            var request = FetchRequest(
                key: key, app: app, version: appVersion, since: since.flatMap { FetchDates.parse($0, endOfDay: false) },
                until: until.flatMap { FetchDates.parse($0, endOfDay: true) }, kind: kind, outputFolder: output,
                symbolicateWith: symbolicate.isEmpty ? nil : symbolicate)
            request.searchFolders = DebugFileIndex.extraSearchFolders()
            if let base = environment["SYMBOLICATE_APP_STORE_CONNECT_URL"], !base.isEmpty { request.baseURL = base }
            if !quiet { request.progress = { line in Console.write("symbolicate fetch: \(line)\n", to: .standardError) } }
            let response = await request.run()
            try Console.finish(response.messages, standardOutput: nil, status: response.status)
        }
    }

    extension FetchKind: ExpressibleByArgument {}

    /// `--since` and `--until`: a day (UTC; `--until` takes the whole day) or an ISO 8601 date and time.
    enum FetchDates {
        static func parse(_ text: String, endOfDay: Bool) -> Date? {
            let day = ISO8601DateFormatter()
            day.formatOptions = [.withFullDate]
            if text.count == 10, let date = day.date(from: text) { return endOfDay ? date.addingTimeInterval(86399) : date }
            let full = ISO8601DateFormatter()
            if let date = full.date(from: text) { return date }
            full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return full.date(from: text)
        }
    }
#endif
