/// What a replaced value was: the kinds a scrub report counts. Each kind has its own
/// placeholder shape, so a reader of the scrubbed report still sees what stood there.
public enum ScrubKind: String, Sendable, Codable, CaseIterable, Comparable {
    /// A user's short name in a home folder path (`/Users/NAME/`, `/home/NAME/`).
    case userName = "user-name"
    /// An app's container id in a path (`…/Bundle/Application/UUID/`, `…/Data/Application/UUID/`).
    case container
    /// A device's or computer's own name (`Device Name:`, `"hostname"`).
    case deviceName = "device-name"
    /// The report's incident id (`Incident Identifier:`, `"incident"`, a Sentry `event_id`).
    case incident
    /// The CrashReporter key / anonymous id that ties a device's reports together.
    case reporterKey = "crash-reporter-key"
    /// TestFlight's beta identifier.
    case betaIdentifier = "beta-identifier"
    /// A boot or sleep/wake session id (`Sleep/Wake UUID:`, `"bootSessionUUID"`).
    case session
    /// A device's UDID in any of its forms (40 hex digits, `XXXXXXXX-XXXXXXXXXXXXXXXX`, a simulator's UUID).
    case udid
    /// A hardware serial number.
    case serialNumber = "serial-number"
    case email
    case ipv4
    case ipv6

    public static func < (lhs: ScrubKind, rhs: ScrubKind) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// The placeholder for the `number`th distinct value of this kind in a run. Addresses take
    /// the ranges reserved for documentation (RFC 5737, RFC 3849) and e-mail the `.invalid`
    /// domain (RFC 2606), so the result still reads as what it was and never names anyone.
    func placeholder(_ number: Int) -> String {
        switch self {
        case .ipv4:
            // The three documentation networks, 254 hosts each; beyond that they repeat.
            let networks = ["192.0.2", "198.51.100", "203.0.113"]
            let index = (number - 1) % (254 * networks.count)
            return "\(networks[index / 254]).\(index % 254 + 1)"
        case .ipv6: return "2001:db8::" + String(number, radix: 16)
        case .email: return "email-\(number)@example.invalid"
        case .userName: return "user-\(number)"
        default: return "\(rawValue)-\(number)"
        }
    }
}
