import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO

/// The store index and the crash inbox talk to PostgreSQL from synchronous code: a query's
/// future is waited for on the calling thread (never an event loop's), within a time limit,
/// and a PostgreSQL error is said in the server's own words. One copy for both.
package enum PostgresWait {
    /// No answer within the time limit.
    package struct Unanswered: Error, CustomStringConvertible {
        package var seconds: TimeInterval
        package var description: String { "no answer in \(Int(seconds)) s" }
    }

    /// Waits for `future` on this thread, at most `timeout` seconds.
    package static func result<T: Sendable>(of future: EventLoopFuture<T>, timeout: TimeInterval) throws -> T {
        let outcome = Outcome<T>()
        future.whenComplete { outcome.set($0) }
        guard let result = outcome.wait(seconds: timeout) else { throw Unanswered(seconds: timeout) }
        return try result.get()
    }

    /// A connection to `url` (its TLS mode, a connect timeout of `timeout`), waited for here.
    package static func connect(
        _ url: PostgresIndexURL, on loop: any EventLoop, timeout: TimeInterval, id: Int, logger: Logger
    ) throws -> PostgresConnection {
        let tls: PostgresConnection.Configuration.TLS
        switch url.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        configuration.options.connectTimeout = .milliseconds(Int64(timeout * 1000))
        return try result(of: PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: logger), timeout: timeout)
    }

    /// The server's message for a PostgreSQL error, else the error's code or description.
    package static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }

    /// A result handed from the event loop to the waiting thread.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var result: Result<T, any Error>?

        func set(_ value: Result<T, any Error>) {
            condition.lock()
            result = value
            condition.signal()
            condition.unlock()
        }

        func wait(seconds: TimeInterval) -> Result<T, any Error>? {
            let deadline = Date().addingTimeInterval(seconds)
            condition.lock()
            defer { condition.unlock() }
            while result == nil, condition.wait(until: deadline) {}
            return result
        }
    }
}
