// A small server-style program that crashes in one of four ways, chosen by its first
// argument, so the Swift runtime's backtracer prints a real crash log for each.
// Built by Fixtures/linux/generate.sh with `swiftc -g -O`: the helpers below are small
// enough to be inlined, which gives the logs inline chains to symbolicate.

struct Request {
    var path: String
    var headers: [String: String]
}

/// `nil` for any header the request does not carry.
@inline(never)
func header(_ name: String, in request: Request) -> String? {
    request.headers[name]
}

/// Force unwrap of nil: "Fatal error: Unexpectedly found nil while unwrapping an Optional value".
func contentLength(of request: Request) -> Int {
    let value = header("Content-Length", in: request)!
    return value.count
}

struct Router {
    var routes: [String]

    /// Index out of range when asked for a route past the end.
    func route(at index: Int) -> String {
        routes[index]
    }
}

@inline(never)
func handle(_ router: Router, index: Int) -> Int {
    router.route(at: index).count
}

/// Reads through an address the program never mapped: "Bad pointer dereference".
@inline(never)
func readField(at address: Int) -> Int {
    guard let pointer = UnsafePointer<Int>(bitPattern: address) else { return 0 }
    return pointer.pointee
}

/// `fatalError` in an async function, called from a task.
func loadRecord(_ id: Int) async -> Int {
    if id > 2 {
        fatalError("record \(id) is missing")
    }
    return id
}

@inline(never)
func serve(_ ids: [Int]) async -> Int {
    var total = 0
    for id in ids { total += await loadRecord(id) }
    return total
}

@main
struct Crashy {
    static func main() async {
        let mode = CommandLine.arguments.dropFirst().first ?? ""
        let count = CommandLine.arguments.count
        switch mode {
        case "unwrap":
            print(contentLength(of: Request(path: "/upload", headers: ["Host": "example.org"])))
        case "index":
            print(handle(Router(routes: ["/", "/health"]), index: count + 3))
        case "pointer":
            print(readField(at: 0x10 * count))
        case "async":
            let task = Task { await serve([1, 2, count + 1]) }
            print(await task.value)
        default:
            print("usage: crashy unwrap|index|pointer|async")
        }
    }
}
