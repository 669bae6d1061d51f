import Foundation
import SharingTesting
import Testing

@Suite struct CustomDumpTests {
  @Test func nestedStructs() {
    let user = User(id: 1, name: "Blob", stats: Stats(count: 2, minCount: 0))
    #expect(
      String(customDumping: user) == """
        User(
          id: 1,
          name: "Blob",
          stats: Stats(
            count: 2,
            minCount: 0
          )
        )
        """
    )
  }

  @Test func structWithoutFields() {
    #expect(String(customDumping: Empty()) == "Empty()")
  }

  @Test func nestedTypeNamesKeepGenericsAndDropModules() {
    #expect(
      String(customDumping: Outer.Inner(pair: Pair(first: 1, second: "a"))) == """
        Outer.Inner(
          pair: Pair<Int, String>(
            first: 1,
            second: "a"
          )
        )
        """
    )
    #expect(String(customDumping: [Int?].self) == "[Int?].self")
    #expect(
      String(customDumping: [String: Pair<Int, Bool>].self) == "[String: Pair<Int, Bool>].self"
    )
  }

  @Test func enumsPrintTheirTypeOnlyAtTheRoot() {
    #expect(String(customDumping: Tab.counter) == "Tab.counter")
    #expect(String(customDumping: Screen(tab: .profile)) == "Screen(\n  tab: .profile\n)")
  }

  @Test func enumsWithAssociatedValues() {
    #expect(String(customDumping: Load.loaded(42)) == "Load.loaded(42)")
    #expect(
      String(customDumping: Load.failed(code: 7, reason: "x"))
        == #"Load.failed(code: 7, reason: "x")"#
    )
    #expect(String(customDumping: Load.retry(after: 2)) == "Load.retry(after: 2)")
    #expect(
      String(customDumping: Load.stats(Stats(count: 1, minCount: 0))) == """
        Load.stats(
          Stats(
            count: 1,
            minCount: 0
          )
        )
        """
    )
    #expect(String(customDumping: [Load.loaded(1)]) == "[\n  [0]: .loaded(1)\n]")
  }

  @Test func enumCaseNamesIgnoreCustomDescriptions() {
    #expect(String(customDumping: Described.plain) == "Described.plain")
  }

  @Test func resultIsAnEnum() {
    let result = Result<Int, ParseError>.success(1)
    #expect(String(customDumping: result) == "Result<Int, ParseError>.success(1)")
  }

  @Test func optionalsPrintNilOrTheirValue() {
    #expect(String(customDumping: Int?.none as Any) == "nil")
    #expect(String(customDumping: Int?.some(3) as Any) == "3")
    #expect(String(customDumping: Int??.some(nil) as Any) == "nil")
    #expect(String(customDumping: Maybe(value: nil)) == "Maybe(\n  value: nil\n)")
  }

  @Test func scalars() {
    #expect(String(customDumping: true) == "true")
    #expect(String(customDumping: -12) == "-12")
    #expect(String(customDumping: UInt8(255)) == "255")
    #expect(String(customDumping: 1.5) == "1.5")
    #expect(String(customDumping: Character("x")) == #""x""#)
    #expect(String(customDumping: Decimal(string: "3.14") as Any) == "3.14")
    #expect(
      String(customDumping: Date(timeIntervalSince1970: 1_234_567_890))
        == "Date(2009-02-13T23:31:30.000Z)"
    )
    #expect(
      String(customDumping: URL(string: "https://example.com/a?b=c") as Any)
        == "URL(https://example.com/a?b=c)"
    )
    #expect(
      String(customDumping: UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF") as Any)
        == "UUID(DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF)"
    )
    #expect(String(customDumping: Data("hello world!".utf8)) == "Data(12 bytes)")
    #expect(String(customDumping: Data([1])) == "Data(1 byte)")
    #expect(String(customDumping: AnyHashable("a")) == #""a""#)
  }

  @Test func stringsAreQuotedWithEscapes() {
    #expect(String(customDumping: #"say "hi"\"#) == #""say \"hi\"\\""#)
    #expect(String(customDumping: "tab\there\r") == #""tab\there\r""#)
    #expect(String(customDumping: "bell\u{7}") == #""bell\u{7}""#)
    #expect(String(customDumping: "") == #""""#)
  }

  @Test func substringsAndStaticStringsAreStrings() {
    #expect(String(customDumping: "abc".dropFirst()) == #""bc""#)
    let greeting: StaticString = "hi"
    #expect(String(customDumping: greeting) == #""hi""#)
  }

  @Test func windowsLineEndingsKeepTheirCarriageReturn() {
    #expect(String(customDumping: "a\r\nb") == "\"\"\"\na\\r\nb\n\"\"\"")
  }

  @Test func unicodeIsKeptAsIs() {
    #expect(String(customDumping: "👨‍👩‍👧 🇨🇦 ok") == #""👨‍👩‍👧 🇨🇦 ok""#)
    #expect(String(customDumping: "東京") == #""東京""#)
    #expect(String(customDumping: "cafe\u{301}") == "\"cafe\u{301}\"")
    #expect(String(customDumping: "\u{301}a") == #""\u{301}a""#)
    #expect(String(customDumping: ["東京": "🗼"]) == "[\n  \"東京\": \"🗼\"\n]")
  }

  @Test func multiLineStringsAreBlocks() {
    #expect(
      String(customDumping: Note(body: "Hello\n\"\"\"quoted\"\"\"\n\nbye")) == #"""
        Note(
          body: """
          Hello
          ""\"quoted""\"

          bye
          """
        )
        """#
    )
  }

  @Test func arrays() {
    #expect(String(customDumping: [Int]()) == "[]")
    #expect(
      String(customDumping: [[1], []]) == """
        [
          [0]: [
            [0]: 1
          ],
          [1]: []
        ]
        """
    )
  }

  @Test func setsAreSortedByTheirDumps() {
    #expect(String(customDumping: Set<Int>()) == "Set([])")
    #expect(
      String(customDumping: Set(["b", "c", "a"])) == """
        Set([
          "a",
          "b",
          "c"
        ])
        """
    )
  }

  @Test func dictionariesAreSortedByTheirKeys() {
    #expect(String(customDumping: [String: Int]()) == "[:]")
    #expect(
      String(customDumping: ["b": 2, "c": 3, "a": 1]) == """
        [
          "a": 1,
          "b": 2,
          "c": 3
        ]
        """
    )
    #expect(
      String(customDumping: [Tab.profile: [1], Tab.counter: []]) == """
        [
          .counter: [],
          .profile: [
            [0]: 1
          ]
        ]
        """
    )
  }

  @Test func dictionaryKeysCanSpanLines() {
    #expect(
      String(customDumping: [Stats(count: 1, minCount: 0): "one"]) == """
        [
          Stats(
            count: 1,
            minCount: 0
          ): "one"
        ]
        """
    )
  }

  @Test func tuples() {
    #expect(
      String(customDumping: (label: 1, "two")) == """
        (
          label: 1,
          "two"
        )
        """
    )
    #expect(String(customDumping: ()) == "()")
  }

  @Test func classesIncludeInheritedFields() {
    #expect(
      String(customDumping: Dog(name: "Rex", isGood: true)) == """
        Dog(
          name: "Rex",
          isGood: true
        )
        """
    )
  }

  @Test func classWithoutFields() {
    #expect(String(customDumping: Marker()) == "Marker()")
  }

  @Test func closuresAreOpaque() {
    let increment: (Int) -> Int = { $0 + 1 }
    #expect(String(customDumping: increment) == "(Function)")
  }

  @Test func classCyclesAreCut() {
    let node = Node(name: "a")
    node.next = Node(name: "b")
    node.next?.next = node
    #expect(
      String(customDumping: node) == """
        Node(
          name: "a",
          next: Node(
            name: "b",
            next: Node(↩︎)
          )
        )
        """
    )
  }

  @Test func sharedObjectsThatAreNotCyclesPrintInFull() {
    let shared = Node(name: "x")
    #expect(
      String(customDumping: [shared, shared]) == """
        [
          [0]: Node(
            name: "x",
            next: nil
          ),
          [1]: Node(
            name: "x",
            next: nil
          )
        ]
        """
    )
  }

  @Test func longCollectionsAreAbbreviated() {
    let lines = (0..<50).map { "  [\($0)]: \($0)," } + ["  … (25 more)"]
    #expect(String(customDumping: Array(0..<75)) == (["["] + lines + ["]"]).joined(separator: "\n"))
    #expect(String(customDumping: Array(0..<50)).hasSuffix("  [49]: 49\n]"))
  }

  @Test func nameIndentAndMaxDepth() {
    var output = ""
    customDump(Stats(count: 1, minCount: 0), to: &output, name: "stats", indent: 4)
    #expect(output == "    stats: Stats(\n      count: 1,\n      minCount: 0\n    )")
    output = ""
    let user = User(id: 1, name: "Blob", stats: Stats(count: 2, minCount: 0))
    customDump(user, to: &output, maxDepth: 1)
    #expect(output == "User(\n  id: 1,\n  name: \"Blob\",\n  stats: Stats(…)\n)")
    output = ""
    customDump([Empty()], to: &output, maxDepth: 0)
    #expect(output == "[…]")
  }

  @Test func customDumpReturnsItsValue() {
    var output = ""
    #expect(customDump(7, to: &output) == 7)
  }
}

// MARK: - Fixtures

private struct Stats: Hashable {
  var count: Int
  var minCount: Int
}

private struct User {
  var id: Int
  var name: String
  var stats: Stats
}

private struct Empty {}

private struct Pair<First, Second> {
  var first: First
  var second: Second
}

private enum Outer {
  struct Inner {
    var pair: Pair<Int, String>
  }
}

private enum Tab: Hashable {
  case counter
  case profile
}

private struct Screen {
  var tab: Tab
}

private enum Load {
  case loaded(Int)
  case failed(code: Int, reason: String)
  case retry(after: Int)
  case stats(Stats)
}

private enum Described: CustomStringConvertible {
  case plain
  var description: String { "not the case name" }
}

private struct ParseError: Error {}

private struct Maybe {
  var value: Int?
}

private struct Note {
  var body: String
}

private class Animal {
  let name: String
  init(name: String) { self.name = name }
}

private final class Dog: Animal {
  let isGood: Bool
  init(name: String, isGood: Bool) {
    self.isGood = isGood
    super.init(name: name)
  }
}

private final class Marker {}

private final class Node {
  let name: String
  var next: Node?
  init(name: String) { self.name = name }
}
