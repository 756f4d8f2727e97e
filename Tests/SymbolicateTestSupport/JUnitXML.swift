import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A JUnit XML file as the tests read it (batch mode's `--junit`): whether it parses, the
/// test case names in order, and how many failed or errored.
public struct JUnitXML: Sendable {
    public var testcases: [String] = []
    public var failures = 0
    public var errors = 0
    /// Attributes of the `<testsuites>` root.
    public var rootAttributes: [String: String] = [:]
    /// Why the XML does not parse; nil when it does.
    public var parseError: String?

    public init(_ data: Data) {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        if !parser.parse() { parseError = parser.parserError.map { "\($0)" } ?? "does not parse" }
        testcases = reader.testcases
        failures = reader.failures
        errors = reader.errors
        rootAttributes = reader.rootAttributes
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var testcases: [String] = []
        var failures = 0, errors = 0
        var rootAttributes: [String: String] = [:]

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            switch elementName {
            case "testsuites": rootAttributes = attributeDict
            case "testcase": testcases.append(attributeDict["name"] ?? "")
            case "failure": failures += 1
            case "error": errors += 1
            default: break
            }
        }
    }
}
