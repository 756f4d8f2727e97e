// Built with the Server trait (on by default); without it BuildTraits.swift names the trait instead.
#if Server
    import ArgumentParser
    import Foundation
    import SymbolicatePipeline
    import SymbolicateServe

    /// `symbolicate serve`: the page to paste a report on, and the HTTP API (SymbolicateServe).
    struct ServeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve a web page to paste or drop a crash report on, and an HTTP API (POST /v1/symbolicate).",
            discussion: """
                Open http://HOST:PORT/ in a browser to paste or drop a report. POST /v1/symbolicate \
                takes a report as the body and answers with what symbolicate - gives for the same \
                report and debug files (Accept: text/plain, application/json, text/markdown; \
                ?format=, ?explain=1, ?language=), with --debug-files and the store. \
                PUT /v1/debug-files stores a zip, dSYM DWARF, Mach-O or ELF file by the identities \
                inside (Authorization: Bearer $SYMBOLICATE_SERVE_TOKEN; without that variable the \
                store is read-only); GET and DELETE /v1/debug-files/ID. With --inbox, POST /v1/reports \
                keeps each report grouped by crash (GET /v1/groups, GET /v1/groups/ID, POST \
                /v1/groups/ID/state; the page /inbox). GET /healthz, GET /metrics (Prometheus). \
                The API is described in Documentation/openapi.yaml. Listens on 127.0.0.1 unless \
                --host says otherwise. A body over its limit gets 413, a request past \
                --max-requests gets 503, one past --request-timeout gets 504 (and its work is \
                stopped). Slow clients are cut off (--header-timeout, --body-timeout, \
                --idle-timeout) and connections are limited in all and per client address. \
                API requests from another origin (a browser on another site) get 403, and requests \
                to a host name other than loopback's or --allowed-host's get 421; a request refused \
                on its headers (token, size, origin) is answered and closed without reading its body; \
                Expect: 100-continue is answered before the body is read. SIGINT and SIGTERM \
                stop accepting connections and finish the requests under way. One log line per \
                request on stderr (method, path, status, duration).
                """
        )

        @Option(help: "Address to listen on (0.0.0.0 for every interface).")
        var host = "127.0.0.1"

        @Option(help: "Port to listen on (0: any free port, printed at start).")
        var port = 8080

        @Option(
            name: .customLong("allowed-host"),
            help: ArgumentHelp(
                "A host name the server answers to besides localhost, 127.0.0.1 and [::1] (repeatable): the name it is reached by behind a proxy or on the network. Other names get 421 (against DNS rebinding); a server on a non-loopback --host without this flag answers to any name.",
                valueName: "name"))
        var allowedHosts: [String] = []

        @Option(
            name: .customLong("debug-files"), parsing: .upToNextOption,
            help: "dSYM bundles, DWARF files, folders, .xcarchive or .zip files used for every request.")
        var debugFiles: [String] = []

        @Option(
            help: ArgumentHelp(
                "The debug-file store: a folder of files by UUID/build ID, shared safely by several servers. PUT /v1/debug-files needs SYMBOLICATE_SERVE_TOKEN. Default: $XDG_DATA_HOME/symbolicate/store or ~/.local/share/symbolicate/store.",
                valueName: "dir"))
        var store: String?

        @Option(
            name: .customLong("store-index"),
            help: ArgumentHelp(
                "Where the store's index is, for several servers sharing one store folder: postgres://USER@HOST:PORT/DATABASE (?schema=NAME, ?sslmode=disable|prefer|require; the password from PGPASSWORD). Default: the SQLite file kept in the store's folder.",
                valueName: "url"))
        var storeIndex: String?

        @Option(
            help: ArgumentHelp(
                "Keep a crash inbox: POST /v1/reports stores each report (once, by content) grouped by crash across builds, with states and regressions; GET /v1/groups and the page /inbox list them. An SQLite file's path, or postgres://USER@HOST:PORT/DATABASE for several servers sharing one inbox. Reports waiting for a dSYM are symbolicated again when it is uploaded.",
                valueName: "file-or-url"))
        var inbox: String?

        @Flag(
            name: .customLong("read-token"),
            help:
                "Reading the inbox (GET /v1/groups, /inbox) needs Authorization: Bearer $SYMBOLICATE_SERVE_READ_TOKEN (or the upload token). Without it reading is open."
        )
        var readToken = false

        @Option(
            name: .customLong("keep-reports"),
            help: ArgumentHelp(
                "Days an inbox report is kept; older ones are removed, their groups and counts kept. Default: for ever.", valueName: "days")
        )
        var keepReports: Int?

        @Option(help: "Largest debug-file upload in bytes (413 past it).")
        var maxUploadBytes = ServeLimits().uploadBytes

        @Option(help: "Largest report body in bytes (413 past it).")
        var maxReportBytes = ServeLimits().reportBytes

        @Option(help: "Requests served at once; past it 503 with Retry-After.")
        var maxRequests = ServeLimits().concurrentRequests

        @Option(help: "Seconds a request may take, body included; past it 504, and its work is stopped.")
        var requestTimeout = ServeLimits().requestSeconds

        @Option(help: "Seconds a new connection has to send its request's headers; past it 408 and the connection is closed.")
        var headerTimeout = ServeLimits().headerSeconds

        @Option(
            help:
                "Longest wait, in seconds, for the next piece of a request body once the server asks for it; past it the connection is closed."
        )
        var bodyTimeout = ServeLimits().bodySeconds

        @Option(help: "Seconds a kept-alive connection may wait for its next request; then it is closed.")
        var idleTimeout = ServeLimits().idleSeconds

        @Option(help: "Connections open at once; past it a new connection's request gets 503.")
        var maxConnections = ServeLimits().connections

        @Option(help: "Connections open at once from one client address; past it 503.")
        var maxConnectionsPerClient = ServeLimits().connectionsPerClient

        @OptionGroup var source: SourceContextOption

        @OptionGroup var objectPaths: ObjectPathMapOption

        /// The flags as the library's request.
        var request: ServeRequest {
            var limits = ServeLimits()
            limits.uploadBytes = maxUploadBytes
            limits.reportBytes = maxReportBytes
            limits.concurrentRequests = maxRequests
            limits.requestSeconds = requestTimeout
            limits.headerSeconds = headerTimeout
            limits.bodySeconds = bodyTimeout
            limits.idleSeconds = idleTimeout
            limits.connections = maxConnections
            limits.connectionsPerClient = maxConnectionsPerClient
            var request = ServeRequest(host: host, port: port, debugFiles: debugFiles, store: store, storeIndex: storeIndex, limits: limits)
            request.allowedHosts = allowedHosts
            request.inbox = inbox
            request.requiresReadToken = readToken
            request.keepReportDays = keepReports
            request.objectPathMap = objectPaths.objectPathMap
            return request
        }

        func validate() throws {
            if let problem = request.invalidArgument { throw ValidationError(problem) }
        }

        func run() async throws {
            var request = self.request
            request.sourceContext = try source.provider(discovery: nil)
            let status = try await request.run { message in Console.write(message.text(tool: "symbolicate serve"), to: message.stream) }
            if status != .success { throw ExitCode(status.rawValue) }
        }
    }
#endif
