// The issue-21 case: a program whose frames the Swift runtime's backtracer names itself,
// because the debug file sits beside the stripped binary (found through .gnu_debuglink),
// while the crash log carries no file and line. Built by Fixtures/linux-named/generate.sh
// with `swiftc -g -O`: `Fuga.init(json:)` is specialised and its force unwrap traps inside
// it; `Loader.load(_:)` is kept out of line so the log names it.

struct Fuga {
    var name: String
    init(json: [String: String]) {
        name = json["name"]!
    }
}

final class Loader {
    var loaded: [Fuga] = []
    @inline(never)
    func load(_ documents: [[String: String]]) {
        for document in documents { loaded.append(Fuga(json: document)) }
    }
}

@main
struct App {
    static func main() {
        let loader = Loader()
        var documents: [[String: String]] = [["name": "first"]]
        if CommandLine.arguments.count < 5 { documents.append(["title": "second"]) }
        loader.load(documents)
        print(loader.loaded.count)
    }
}
