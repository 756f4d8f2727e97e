import Crypto
import Foundation
import Synchronization

/// The App Store Connect API as this client was built from it: Apple's published OpenAPI
/// description (`openapi.oas.json`, `info.version` below). The paths, query parameters and
/// schemas used (`BetaFeedbackCrashSubmission`, `BetaCrashLog`, `Build`, `DiagnosticSignature`,
/// `DiagnosticLogs`, `ErrorResponse`, `PagedDocumentLinks`) are that version's.
public enum AppStoreConnectSpec {
    public static let openAPIVersion = "4.5.1"
    /// Where the API is; `SYMBOLICATE_APP_STORE_CONNECT_URL` replaces it (a proxy, or the tests'
    /// local server).
    public static let productionBaseURL = "https://api.appstoreconnect.apple.com"
    /// The JWT audience the API requires.
    static let audience = "appstoreconnect-v1"
    /// The largest `limit` the collections take.
    static let pageLimit = 200
}

/// An App Store Connect API key: the key id, the issuer id and the private half (the `.p8`
/// file, a PKCS#8 PEM P-256 key). Printing it names the key id only: the private key is never
/// in any message, log or output.
public struct AppStoreConnectKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let keyID: String
    public let issuerID: String
    let privateKey: P256.Signing.PrivateKey

    public var description: String { "App Store Connect API key \(keyID)" }
    public var debugDescription: String { description }

    package init(keyID: String, issuerID: String, privateKey: P256.Signing.PrivateKey) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.privateKey = privateKey
    }

    /// Reads the `.p8` file. Errors name the file and what is wrong with it, never its contents.
    public static func load(keyID: String, issuerID: String, privateKeyPath: String) throws(AppStoreConnectError) -> AppStoreConnectKey {
        guard !keyID.isEmpty else { throw .credentials("the key id is empty (--key-id or APP_STORE_CONNECT_KEY_ID)") }
        guard !issuerID.isEmpty else { throw .credentials("the issuer id is empty (--issuer-id or APP_STORE_CONNECT_ISSUER_ID)") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: privateKeyPath, isDirectory: &isFolder) else {
            throw .credentials("\(privateKeyPath): no such file (--private-key or APP_STORE_CONNECT_KEY_PATH)")
        }
        guard !isFolder.boolValue else { throw .credentials("\(privateKeyPath): is a folder, not a .p8 key file") }
        guard let data = FileManager.default.contents(atPath: privateKeyPath) else {
            throw .credentials("\(privateKeyPath): cannot be read")
        }
        // A .p8 key is about 250 bytes; anything large is not one (and is not read further).
        guard data.count <= 16384, let text = String(data: data, encoding: .utf8) else {
            throw .credentials("\(privateKeyPath): not a PEM text file (an App Store Connect .p8 key is a short PEM text)")
        }
        let key: P256.Signing.PrivateKey
        do { key = try P256.Signing.PrivateKey(pemRepresentation: text) } catch {
            throw .credentials(
                "\(privateKeyPath): not a P-256 private key in PEM (an App Store Connect .p8 key begins with -----BEGIN PRIVATE KEY-----)")
        }
        return AppStoreConnectKey(keyID: keyID, issuerID: issuerID, privateKey: key)
    }
}

/// Signs and keeps the bearer token: an ES256 JWT (header `alg`, `kid`, `typ`; claims `iss`,
/// `iat`, `exp`, `aud`) living `lifetime` seconds (Apple takes at most 20 minutes). A new one
/// is signed when the current one has less than a minute left, and after a 401.
final class TokenSource: Sendable {
    let key: AppStoreConnectKey
    let lifetime: TimeInterval
    private let state = Mutex<(token: String, expires: Date)?>(nil)
    private let signedCount = Mutex(0)

    init(key: AppStoreConnectKey, lifetime: TimeInterval = 19 * 60) {
        self.key = key
        self.lifetime = min(lifetime, 20 * 60)
    }

    /// Tokens signed so far (tests count renewals with it).
    var signed: Int { signedCount.withLock { $0 } }

    func token(now: Date) throws(AppStoreConnectError) -> String {
        if let current = state.withLock({ $0 }), current.expires.timeIntervalSince(now) > 60 { return current.token }
        let token = try Self.sign(key, now: now, lifetime: lifetime)
        state.withLock { $0 = (token, now.addingTimeInterval(lifetime)) }
        signedCount.withLock { $0 += 1 }
        return token
    }

    /// Forgets the current token (the server refused it).
    func invalidate() { state.withLock { $0 = nil } }

    static func sign(_ key: AppStoreConnectKey, now: Date, lifetime: TimeInterval) throws(AppStoreConnectError) -> String {
        let issued = Int(now.timeIntervalSince1970)
        let header: [String: Any] = ["alg": "ES256", "kid": key.keyID, "typ": "JWT"]
        let claims: [String: Any] = [
            "iss": key.issuerID, "iat": issued, "exp": issued + Int(lifetime), "aud": AppStoreConnectSpec.audience,
        ]
        guard let headerJSON = try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]),
            let claimsJSON = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        else { throw .credentials("the key id or issuer id cannot be written into a token") }
        let input = base64URL(headerJSON) + "." + base64URL(claimsJSON)
        do {
            // ES256: ECDSA P-256 over SHA-256; JWS wants the raw r‖s form (64 bytes), not DER.
            let signature = try key.privateKey.signature(for: Data(input.utf8))
            return input + "." + base64URL(signature.rawRepresentation)
        } catch {
            throw .credentials("the token could not be signed with \(key)")
        }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
