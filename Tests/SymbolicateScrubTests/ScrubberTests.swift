import Foundation
import SymbolicateCrashReport
import Testing

@testable import SymbolicateScrub

/// The scrubber's rules, one kind at a time, on texts in the layouts reports come in. The
/// identifiers below are made up for the tests (no real device or person).
@Suite struct ScrubberTests {
    private func scrub(_ text: String, keep: Set<String> = []) -> (String, ScrubTally) {
        var scrubber = Scrubber()
        let out = scrubber.scrub(text, keep: keep)
        return (out, scrubber.tally)
    }

    @Test func textHeaderFieldsAreReplacedByKind() {
        let text = """
            Incident Identifier: 11111111-2222-4333-8444-555555555555
            CrashReporter Key:   0123456789abcdef0123456789abcdef01234567
            Beta Identifier:     99999999-8888-4777-8666-555555555555
            Anonymous UUID:      AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE
            Sleep/Wake UUID:     12121212-3434-4545-8656-787878787878
            Device Name:         Jane's iPhone
            Hardware Model:      iPhone14,2
            Process:             Demo [123]

            """
        let (out, tally) = scrub(text)
        #expect(out.contains("Incident Identifier: incident-1\n"))
        #expect(out.contains("CrashReporter Key:   crash-reporter-key-1\n"))
        #expect(out.contains("Beta Identifier:     beta-identifier-1\n"))
        #expect(out.contains("Anonymous UUID:      crash-reporter-key-2\n"))
        #expect(out.contains("Sleep/Wake UUID:     session-1\n"))
        #expect(out.contains("Device Name:         device-name-1\n"))
        #expect(out.contains("Hardware Model:      iPhone14,2\n"))
        #expect(out.contains("Process:             Demo [123]\n"))
        #expect(tally.replacements == 6)
    }

    @Test func ipsPathsWithEscapedSlashesKeepTheirShapeAndStayJSON() throws {
        let body = #"""
            {
              "incident" : "11111111-2222-4333-8444-555555555555",
              "procPath" : "\/private\/var\/containers\/Bundle\/Application\/69FDCCFC-4206-4466-9CE4-6F22B5B243F4\/Demo.app\/Demo",
              "home" : "\/Users\/jane.doe\/Library\/Developer\/CoreSimulator\/Devices\/2FF8DD07-20B7-4D04-97F0-092DF61CD3C3\/data",
              "usedImages" : [{"uuid" : "4c4c443b-5555-3144-a1e9-455154cffd57", "path" : "\/home\/jdoe\/bin\/4C4C443B-5555-3144-A1E9-455154CFFD57\/x"}]
            }
            """#
        let (out, _) = scrub(body, keep: ["4c4c443b-5555-3144-a1e9-455154cffd57"])
        #expect(out.contains(#"Application\/container-1\/Demo.app"#))
        #expect(out.contains(#"\/Users\/user-1\/Library"#))
        #expect(out.contains(#"Devices\/udid-1\/data"#))
        #expect(
            out.contains(#"\/home\/user-2\/bin\/4C4C443B-5555-3144-A1E9-455154CFFD57\/x"#), "a kept identity stays, even as a folder name")
        #expect(out.contains(#""uuid" : "4c4c443b-5555-3144-a1e9-455154cffd57""#))
        #expect(try JSONSerialization.jsonObject(with: Data(out.utf8)) is [String: Any])
    }

    @Test func theSameValueGetsTheSamePlaceholderAcrossFiles() {
        var scrubber = Scrubber()
        let first = scrubber.scrub("Incident Identifier: 11111111-2222-4333-8444-555555555555\nPath: /Users/jane/a\n")
        let second = scrubber.scrub(#"{"incident_id":"11111111-2222-4333-8444-555555555555","p":"\/Users\/jane\/b","q":"/Users/joe/c"}"#)
        #expect(first == "Incident Identifier: incident-1\nPath: /Users/user-1/a\n")
        #expect(second == #"{"incident_id":"incident-1","p":"\/Users\/user-1\/b","q":"/Users/user-2/c"}"#)
        #expect(scrubber.tally.kinds.map(\.values) == [2, 1])
    }

    @Test func anIdentifierFoundInAFieldIsReplacedEverywhere() {
        let text = "Incident Identifier: 11111111-2222-4333-8444-555555555555\nLog: saved 11111111-2222-4333-8444-555555555555.ips\n"
        let (out, _) = scrub(text)
        #expect(out == "Incident Identifier: incident-1\nLog: saved incident-1.ips\n")
    }

    @Test func emailAndIPAddressesByShape() {
        let text = """
            Application Specific Information: login failed for jane.doe+test@mail.example.com from 10.1.2.3 and fe80::1c2b:3a4d:5e6f:7081%en0
            Connected to 2001:0db8:85a3:0000:0000:8a2e:0370:7334 and 2a00:1450:4001:82a::200e (via 127.0.0.1, ::1)
            Loaded icon@2x.png and symbol@plt; version 1.2.3.4 of Foo; time 21:00:54; std::vector a::b::c
            0x7fff9202b000 - 0x7fff92036fff com.apple.LocalAuthentication (1.0 - 114.20.6.145) <01750F47-B6D5-34EB-BCD9-878CDE994F1F> /S

            """
        let (out, tally) = scrub(text)
        #expect(out.contains("login failed for email-1@example.invalid from 192.0.2.1 and 2001:db8::1\n"))
        #expect(out.contains("Connected to 2001:0db8:85a3:0000:0000:8a2e:0370:7334 and 2001:db8::2 (via 127.0.0.1, ::1)"))
        #expect(out.contains("Loaded icon@2x.png and symbol@plt; version 1.2.3.4 of Foo; time 21:00:54; std::vector a::b::c"))
        #expect(out.contains("(1.0 - 114.20.6.145)"))
        #expect(tally.kinds.map(\.kind) == [.email, .ipv4, .ipv6])
    }

    @Test func udidsInEveryFormButNeverAnImageIdentity() {
        let buildID = "0123456789abcdef0123456789abcdef01234567"
        let text = """
            UDID: 00008030-001A2B3C4D5E802E
            Device: 0fedcba9876543210fedcba9876543210fedcba9 attached
            Images: crashy (\(buildID))
            Simulator: /Users/USER/Library/Developer/CoreSimulator/Devices/2FF8DD07-20B7-4D04-97F0-092DF61CD3C3/data
            {"logWritingSignature" : "75908bdcfc08551338b2b55de41ff4eb0daa374c"}

            """
        let (out, _) = scrub(text, keep: [buildID])
        #expect(out.contains("UDID: udid-1\n"))
        #expect(out.contains("Device: udid-2 attached\n"))
        #expect(out.contains("crashy (\(buildID))"))
        #expect(out.contains("/Users/USER/Library/Developer/CoreSimulator/Devices/udid-3/data"), "USER names nobody")
        #expect(out.contains("75908bdcfc08551338b2b55de41ff4eb0daa374c"), "a named field's hash is what its name says")
    }

    @Test func nestedFieldsOfDeviceAndUserObjects() throws {
        let event =
            #"{"contexts":{"device":{"name":"Jane's iPad","model":"iPad8,1"}},"user":{"id":"42","email":"j@example.org","ip_address":"203.0.113.9"},"name":"Demo"}"#
        let (out, _) = scrub(event)
        #expect(
            out
                == #"{"contexts":{"device":{"name":"device-name-1","model":"iPad8,1"}},"user":{"id":"user-1","email":"email-1@example.invalid","ip_address":"203.0.113.9"},"name":"Demo"}"#
        )
        #expect(try JSONSerialization.jsonObject(with: Data(out.utf8)) is [String: Any])
    }

    @Test func scrubbingTwiceChangesNothingMore() {
        let text = "Incident Identifier: 11111111-2222-4333-8444-555555555555\nPath: /Users/jane/App\nfrom 10.0.0.7 j@example.org\n"
        let (once, _) = scrub(text)
        let (twice, tally) = scrub(once)
        #expect(once == twice)
        #expect(tally.replacements == 0)
    }

    @Test func summaryNamesKindsAndCountsNeverValues() {
        let (_, tally) = scrub("Incident Identifier: 11111111-2222-4333-8444-555555555555\nPath: /Users/jane/a /Users/jane/b\n")
        #expect(tally.summary == "replaced 3 occurrences: user-name 1 (2×), incident 1 (1×)")
        #expect(!tally.summary.contains("jane"))
    }
}
