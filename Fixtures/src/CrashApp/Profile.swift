// Embedded Swift part of CrashApp (the only Swift mode that builds for Apple
// targets without an SDK). Realistic type names, a closure handed to CrashKit,
// force-unwrap and index-out-of-range traps, and a generic specialization.

@_extern(c, "CKDecodeRecords")
func CKDecodeRecords(
    _ buffer: UnsafePointer<UInt8>?, _ length: Int,
    _ handler: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// A JSON-ish key/value scanner over raw bytes: `key=value;` pairs.
enum JSONScanner {
    @inline(__always)
    static func field(_ bytes: UnsafeBufferPointer<UInt8>, key: UInt8) -> Int? {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == key && bytes[index + 1] == 0x3D {
                return Int(bytes[index + 2])
            }
            index += 3
        }
        return nil
    }

    @inline(__always)
    static func requiredField(_ bytes: UnsafeBufferPointer<UInt8>, key: UInt8) -> Int {
        let value = field(bytes, key: key)
        return value!
    }
}

struct Fuga {
    var identifier: Int
    var version: Int

    @inline(__always)
    init(json bytes: UnsafeBufferPointer<UInt8>) {
        identifier = JSONScanner.requiredField(bytes, key: 0x69)
        version = bytes.count
    }
}

/// Generic on purpose: Embedded Swift specializes it for `Int`.
struct Bucket<Element> {
    var elements: [Element]

    @inline(never)
    func element(at position: Int) -> Element {
        return elements[position]
    }
}

final class ProfileLoader {
    var loaded: Int = 0

    @inline(never)
    func load(from buffer: UnsafePointer<UInt8>?, length: Int) -> Int {
        let status = CKDecodeRecords(buffer, length) { record, count in
            let bytes = UnsafeBufferPointer(start: record, count: count)
            let fuga = Fuga(json: bytes)
            return Int32(truncatingIfNeeded: fuga.identifier &+ fuga.version)
        }
        loaded += Int(status)
        return loaded
    }
}

@inline(never)
func selectBucketElement(_ bucket: Bucket<Int>, _ position: Int) -> Int {
    return bucket.element(at: position) &+ 1
}

@_cdecl("app_launch_swift")
public func appLaunchSwift(_ scenario: Int) -> Int32 {
    let loader = ProfileLoader()
    return Int32(truncatingIfNeeded: loader.load(from: nil, length: scenario))
}

@_cdecl("app_index_swift")
public func appIndexSwift(_ scenario: Int) -> Int32 {
    let bucket = Bucket(elements: [3, 1, 4, 1, 5])
    return Int32(truncatingIfNeeded: selectBucketElement(bucket, scenario + 5))
}
