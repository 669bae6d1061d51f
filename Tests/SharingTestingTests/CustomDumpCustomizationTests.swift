import SharingTesting
import Testing

@Suite struct CustomDumpCustomizationTests {
  @Test func stringConvertiblePrintsItsDescription() {
    #expect(String(customDumping: Token(rawValue: "abc")) == "Token(•••)")
    #expect(
      String(customDumping: Account(token: Token(rawValue: "abc")))
        == "Account(\n  token: Token(•••)\n)"
    )
  }

  @Test func reflectablePrintsItsMirror() {
    #expect(
      String(customDumping: Session(user: "blob", secret: "hunter2")) == """
        Session(
          user: "blob"
        )
        """
    )
  }

  @Test func representablePrintsAnotherValue() {
    #expect(String(customDumping: Box(wrapped: 42)) == "42")
    #expect(String(customDumping: [Box(wrapped: 1)]) == "[\n  [0]: 1\n]")
    #expect(String(customDumping: Selfish(id: 1)) == "Selfish(\n  id: 1\n)")
  }

  @Test func wrappersPrintAsTheirSubject() {
    let stats = Wrapper(Stats(count: 1, maxCount: 1))
    #expect(
      String(customDumping: stats) == """
        Stats(
          count: 1,
          maxCount: 1
        )
        """
    )
    #expect(
      String(customDumping: Feature(stats: stats, tabs: Wrapper([.counter]))) == """
        Feature(
          stats: Stats(
            count: 1,
            maxCount: 1
          ),
          tabs: [
            [0]: .counter
          ]
        )
        """
    )
  }

  @Test func wrappersOfValuesWithoutChildrenPrintTheirDescription() {
    #expect(String(customDumping: Wrapper(7)) == "Wrapper(7)")
    #expect(String(customDumping: Wrapper(Tab.profile)) == "Wrapper(profile)")
  }

  @Test func wrappersOfOptionalsPrintNilOrTheWrappedValue() {
    #expect(String(customDumping: Wrapper(Stats?.none)) == "nil")
    #expect(
      String(customDumping: Wrapper(Stats?.some(Stats(count: 0, maxCount: 0)))) == """
        Stats(
          count: 0,
          maxCount: 0
        )
        """
    )
  }

  @Test func wrapperCyclesAreCut() {
    let cell = Cell()
    cell.value = Wrapper(Link(cell: cell))
    #expect(
      String(customDumping: cell) == """
        Cell(
          value: Link(
            cell: Cell(↩︎)
          )
        )
        """
    )
  }
}

// MARK: - Fixtures

private struct Token: CustomDumpStringConvertible {
  var rawValue: String
  var customDumpDescription: String { "Token(•••)" }
}

private struct Account {
  var token: Token
}

private struct Session: CustomDumpReflectable {
  var user: String
  var secret: String
  var customDumpMirror: Mirror { Mirror(self, children: ["user": user], displayStyle: .struct) }
}

private struct Box: CustomDumpRepresentable {
  var wrapped: Int
  var customDumpValue: Any { wrapped }
}

private struct Selfish: CustomDumpRepresentable {
  var id: Int
  var customDumpValue: Any { self }
}

private struct Stats {
  var count: Int
  var maxCount: Int
}

private enum Tab {
  case counter
  case profile
}

private struct Feature {
  var stats: Wrapper<Stats>
  var tabs: Wrapper<[Tab]>
}

/// Stands in for `Shared`: a reference whose mirror is its current value's.
private final class Wrapper<Value>: CustomReflectable, CustomStringConvertible {
  var value: Value
  init(_ value: Value) { self.value = value }
  var customMirror: Mirror { Mirror(reflecting: value) }
  var description: String { "Wrapper(\(value))" }
}

private struct Link {
  var cell: Cell
}

private final class Cell {
  var value: Wrapper<Link>?
}
