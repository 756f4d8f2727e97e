import Foundation
import SymbolicateCrashReport

/// Decoders for the bit layouts Apple packs into exception codes and for fault addresses.
/// Tables are data (from xnu headers, see the project's explain reference §2.5–2.6).

/// An EXC_GUARD code: bits 63–61 guard type, 60–32 flavor, 31–0 target.
package struct GuardCode: Codable, Sendable, Hashable {
    package let raw: UInt64
    package let type: UInt64
    package let flavor: UInt64
    package let target: UInt64

    package init(_ raw: UInt64) {
        self.raw = raw
        type = raw >> 61
        flavor = (raw >> 32) & 0x1FFF_FFFF
        target = raw & 0xFFFF_FFFF
    }

    package var typeName: String? { Self.typeNames[type] }

    /// Flavor names: Mach-port flavors are values, FD and vnode flavors are bit flags.
    package var flavorNames: [String] {
        switch type {
        case 1: return Self.machPortFlavors[flavor].map { [$0] } ?? []
        case 2: return Self.bitNames(flavor, Self.fdFlavors)
        case 4: return Self.bitNames(flavor, Self.vnodeFlavors)
        case 5: return Self.virtualMemoryFlavors[flavor].map { [$0] } ?? []
        default: return []
        }
    }

    /// What the 32-bit target field holds for this guard type.
    package var targetLabel: String {
        switch type {
        case 1: "mach port"
        case 2: "file descriptor"
        case 3: "namespace"
        case 4: "pid"
        case 6: "mach trap"
        default: "target"
        }
    }

    /// One line such as `GUARD_TYPE_FD, flavor CLOSE, file descriptor 23`.
    package var summary: String {
        var parts = [typeName ?? "guard type \(type)"]
        let flavors = flavorNames
        parts.append("flavor " + (flavors.isEmpty ? hex(flavor) : flavors.joined(separator: "|")))
        parts.append("\(targetLabel) \(target)")
        return parts.joined(separator: ", ")
    }

    private static func bitNames(_ value: UInt64, _ table: [(UInt64, String)]) -> [String] {
        table.filter { value & $0.0 != 0 }.map(\.1)
    }

    static let typeNames: [UInt64: String] = [
        1: "GUARD_TYPE_MACH_PORT", 2: "GUARD_TYPE_FD", 3: "GUARD_TYPE_USER", 4: "GUARD_TYPE_VN",
        5: "GUARD_TYPE_VIRT_MEMORY", 6: "GUARD_TYPE_REJECTED_SC",
    ]
    static let machPortFlavors: [UInt64: String] = [
        1: "DESTROY", 2: "MOD_REFS", 3: "INVALID_OPTIONS", 4: "SET_CONTEXT", 5: "THREAD_SET_STATE",
        6: "SET_EXCEPTION_BEHAVIOR", 7: "SERVICE_PORT_VIOLATION_FATAL", 8: "UNGUARDED",
        9: "KOBJECT_REPLY_PORT_SEMANTICS", 10: "REQUIRE_REPLY_PORT_SEMANTICS", 0x10: "INCORRECT_GUARD",
        0x20: "ILLEGAL_MOVE", 0x40: "STRICT_REPLY", 0x41: "INVALID_NOTIFICATION_REQ",
        0x42: "INVALID_MPO_ENTITLEMENT", 0x43: "DESCRIPTOR_VIOLATION", 0x80: "MSG_FILTERED",
        0x100: "INVALID_RIGHT", 0x200: "INVALID_NAME", 0x400: "INVALID_VALUE", 0x800: "INVALID_ARGUMENT",
        0x1000: "RIGHT_EXISTS", 0x2000: "KERN_NO_SPACE", 0x4000: "KERN_FAILURE", 0x8000: "KERN_RESOURCE",
        0x10000: "SEND_INVALID_REPLY", 0x20000: "SEND_INVALID_VOUCHER", 0x40000: "SEND_INVALID_RIGHT",
        0x80000: "RCV_INVALID_NAME", 0x100000: "RCV_GUARDED_DESC",
        0x100001: "SERVICE_PORT_VIOLATION_NON_FATAL", 0x100002: "PROVISIONAL_REPLY_PORT",
        0x100003: "OOL_PORT_ARRAY_CREATION", 0x100005: "REPLY_PORT_SINGLE_SO_RIGHT",
        0x200000: "OVERDEALLOC_SOFT", 0x400000: "ILLEGALMOVE_SOFT",
    ]
    static let fdFlavors: [(UInt64, String)] = [
        (0x1, "CLOSE"), (0x2, "DUP"), (0x4, "NOCLOEXEC"), (0x8, "SOCKET_IPC"), (0x10, "FILEPORT"),
        (0x20, "MISMATCH"), (0x40, "WRITE"),
    ]
    static let vnodeFlavors: [(UInt64, String)] = [
        (0x1, "RENAME_TO"), (0x2, "RENAME_FROM"), (0x4, "UNLINK"), (0x8, "WRITE_OTHER"),
        (0x10, "TRUNC_OTHER"), (0x20, "LINK"), (0x40, "EXCHDATA"), (0x80, "PERMISSIONS"),
    ]
    static let virtualMemoryFlavors: [UInt64: String] = [
        1: "DEALLOC_GAP", 2: "RECLAIM_COPYIO_FAILURE", 4: "RECLAIM_INDEX_FAILURE", 7: "SEC_ACCESS_FAULT",
        8: "RECLAIM_DEALLOCATE_FAILURE", 0x40: "SEC_ASYNC_ACCESS_FAULT", 0xC8: "MTE_SYNC_FAULT",
        0xC9: "MTE_ASYNC_USER_FAULT", 0xCA: "MTE_ASYNC_KERN_FAULT",
    ]
}

/// An EXC_RESOURCE code[0]: bits 63–61 resource type, 60–58 flavor, the rest type specific.
package struct ResourceCode: Codable, Sendable, Hashable {
    package let raw: UInt64
    package let type: UInt64
    package let flavor: UInt64

    package init(_ raw: UInt64) {
        self.raw = raw
        type = raw >> 61
        flavor = (raw >> 58) & 0x7
    }

    package var typeName: String? { Self.typeNames[type] }

    package var flavorName: String? { Self.flavorNames["\(type).\(flavor)"] }

    /// CPU monitor: permitted percentage (bits 6–0) and interval in seconds (bits 31–7).
    package var cpuLimit: (percent: UInt64, seconds: UInt64)? {
        type == 1 ? (raw & 0x7F, (raw >> 7) & 0x1FF_FFFF) : nil
    }

    /// Memory high-water mark in MB (bits 12–0).
    package var memoryLimitMB: UInt64? {
        type == 3 && flavor == 1 ? raw & 0x1FFF : nil
    }

    package var summary: String {
        var text = typeName ?? "resource type \(type)"
        if let flavorName { text += ", \(flavorName)" }
        if let cpuLimit { text += ", limit \(cpuLimit.percent)% over \(cpuLimit.seconds) s" }
        if let memoryLimitMB { text += ", limit \(memoryLimitMB) MB" }
        return text
    }

    static let typeNames: [UInt64: String] = [
        1: "RESOURCE_TYPE_CPU", 2: "RESOURCE_TYPE_WAKEUPS", 3: "RESOURCE_TYPE_MEMORY",
        4: "RESOURCE_TYPE_IO", 5: "RESOURCE_TYPE_THREADS", 6: "RESOURCE_TYPE_PORTS",
    ]
    static let flavorNames: [String: String] = [
        "1.1": "FLAVOR_CPU_MONITOR", "1.2": "FLAVOR_CPU_MONITOR_FATAL", "2.1": "FLAVOR_WAKEUPS_MONITOR",
        "3.1": "FLAVOR_HIGH_WATERMARK", "3.2": "FLAVOR_DIAG_MEMLIMIT", "4.1": "FLAVOR_IO_PHYSICAL_WRITES",
        "4.2": "FLAVOR_IO_LOGICAL_WRITES", "5.1": "FLAVOR_THREADS_HIGH_WATERMARK", "6.1": "FLAVOR_PORT_SPACE_FULL",
    ]
}

/// What a fault address says about the bug, before any symbolication.
package enum FaultAddress: Codable, Sendable, Hashable {
    /// Exactly 0: a nil pointer was used directly.
    case null
    /// In the first 64 KB: a member read through a nil pointer; the value is the offset.
    case nearNull(offset: UInt64)
    /// The Objective-C runtime's deliberate crash for concurrent strong-property access.
    case objcConcurrentAccess
    /// Upper bits set (PAC signature or corruption); `stripped` is the address without them.
    case highBits(stripped: UInt64?)
    /// Anything else: an ordinary-looking address.
    case other

    /// Pages below this are never mapped; 64 KB covers field offsets of ordinary objects.
    static let nearNullLimit: UInt64 = 0x10000
    /// User-space addresses fit in 48 bits on current Apple hardware.
    static let canonicalLimit: UInt64 = 1 << 48

    package init(address: UInt64, stripped: UInt64? = nil) {
        let effective = stripped ?? address
        if effective & 0xFFFF == 0xbad0, effective < Self.nearNullLimit {
            self = .objcConcurrentAccess
        } else if let stripped, stripped != address, stripped >= Self.nearNullLimit {
            self = .highBits(stripped: stripped)
        } else if stripped == nil, address >= Self.canonicalLimit {
            self = .highBits(stripped: nil)
        } else if effective == 0 {
            self = .null
        } else if effective < Self.nearNullLimit {
            self = .nearNull(offset: effective)
        } else {
            self = .other
        }
    }
}

func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

/// Parses `0x1F`, `1f` with hex letters, or decimal. Returns nil for anything else.
func parseNumber(_ text: String) -> UInt64? {
    ReportNumber.parse(text)
}
