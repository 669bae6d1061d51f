/// A to-do item, the value persisted by the file storage benchmarks.
struct Item: Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var notes: String
  var tags: [String]
  var isDone: Bool
  var score: Double
}

/// A document of items and a counter that bursts of changes increment.
struct Document: Codable, Equatable, Sendable {
  var counter = 0
  var items: [Item] = []
}

/// `count` distinct items, the same in every run.
func makeItems(count: Int) -> [Item] {
  (0..<count).map { index in
    Item(
      id: index,
      title: "Item number \(index)",
      notes: "Remember to look at item \(index) before the end of the week.",
      tags: ["tag\(index % 7)", "tag\(index % 11)"],
      isDone: index % 3 == 0,
      score: Double(index % 1_000) / 8
    )
  }
}
