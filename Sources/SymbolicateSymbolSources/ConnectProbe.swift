import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a server takes TCP connections at all, asked once per host and port before the
/// first request to it.
///
/// async-http-client treats a refused connection as worth retrying until its connect timeout,
/// so a symbol server that is down cost that long, and several times longer on a busy machine.
/// A plain non-blocking `connect` is refused at once; only a host that never answers costs the
/// time limit, once per run.
enum ConnectProbe {
    enum Answer: Sendable, Equatable {
        /// Something accepted the connection (closed again at once).
        case open
        /// Refused, unreachable or not resolvable: the reason in words.
        case refused(String)
        /// No answer within the time limit.
        case silent
    }

    static func probe(host: String, port: Int, timeout: TimeInterval) -> Answer {
        var hints = addrinfo()
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            return .refused("cannot resolve \(host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(first) }
        let deadline = Date().addingTimeInterval(timeout)
        var reason = "connection refused"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            switch attempt(info.pointee, until: deadline) {
            case .open: return .open
            case .silent: return .silent
            case .refused(let why): reason = why
            }
        }
        return .refused(reason)
    }

    /// One address: connect without blocking, then wait for the answer until `deadline`.
    private static func attempt(_ info: addrinfo, until deadline: Date) -> Answer {
        let descriptor = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard descriptor >= 0 else { return .refused(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, (flags < 0 ? 0 : flags) | O_NONBLOCK)
        if connect(descriptor, info.ai_addr, info.ai_addrlen) == 0 { return .open }
        guard errno == EINPROGRESS else { return .refused(reason(errno)) }
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let milliseconds = Int32(clamping: Int((deadline.timeIntervalSinceNow * 1000).rounded(.up)))
            let ready = poll(&entry, 1, max(0, milliseconds))
            if ready < 0 && errno == EINTR { continue }
            // A failing poll says nothing about the server: let the real request find out.
            guard ready != 0 else { return .silent }
            guard ready > 0 else { return .open }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return .open }
            return error == 0 ? .open : .refused(reason(error))
        }
    }

    private static func reason(_ code: Int32) -> String {
        code == ECONNREFUSED ? "connection refused" : String(cString: strerror(code))
    }
}
