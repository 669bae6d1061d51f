import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport

/// `fuzz-decode <seed> <iterations> <directory>`: random and mutated JSON through the decode
/// path of file storage. Prints a line starting with "FUZZ FAILURE" and exits with status 1
/// at the first broken rule:
///
/// 1. On the virtual file system, `<iterations>` external writes to one file: the value
///    becomes what `JSONDecoder` decodes (the default value for an empty file) and
///    `loadError` is `nil`; or, when it does not decode, the value stays as it was,
///    `loadError` is set and the file keeps its bytes.
/// 2. On the virtual file system, `<iterations> / 6` new files loaded: the same rules.
/// 3. On the real disk, in `<directory>`, every 50th undecodable sample: after a change is
///    written, a `.corrupt-` sibling holds exactly the file's old bytes.
///
/// Runs in a process of its own because each undecodable file is reported: thousands of
/// expected runtime warnings go to this process's standard error, not to the test log.
func fuzzDecode(seed: UInt64, iterations: Int, directory: String) async {
  var random = SeededRandom(seed: seed)
  let statistics = withDependencies {
    $0.defaultFileStorage = .inMemory
  } operation: {
    let statistics = fuzzPlayback(iterations: iterations, using: &random)
    fuzzLoads(iterations: iterations / 6, using: &random)
    return statistics
  }
  // NB: Both outcomes must be common for the loop to prove anything.
  guard statistics.decoded > iterations / 10, statistics.failed > iterations / 3 else {
    fuzzFailure("too few of one outcome: \(statistics)")
  }
  let kept = fuzzPreservation(iterations: iterations, directory: directory, using: &random)
  FileHandle.standardError.write(
    Data(
      "fuzz-decode: \(statistics.decoded) decoded, \(statistics.failed) failed, \(kept) kept\n".utf8
    )
  )
}

private func fuzzPlayback(
  iterations: Int,
  using random: inout SeededRandom
) -> (decoded: Int, failed: Int) {
  @Dependency(\.defaultFileStorage) var storage
  let url = URL(fileURLWithPath: "/virtual/document.json")
  @Shared(.fileStorage(url)) var document = Document.initial
  var expected = Document.initial
  var statistics = (decoded: 0, failed: 0)
  for iteration in 0..<iterations {
    let bytes = Fuzzer.next(using: &random)
    storage.simulateExternalWrite(bytes, to: url)
    if let oracle = Fuzzer.decode(bytes) {
      expected = oracle ?? .initial
      statistics.decoded += 1
      check($document.loadError == nil, "playback \(iteration): loadError after a valid file")
    } else {
      statistics.failed += 1
      check($document.loadError != nil, "playback \(iteration): no loadError")
      check(storage.contents(of: url) == bytes, "playback \(iteration): the file changed")
    }
    check(document == expected, "playback \(iteration): \(document) instead of \(expected)")
  }
  return statistics
}

private func fuzzLoads(iterations: Int, using random: inout SeededRandom) {
  @Dependency(\.defaultFileStorage) var storage
  for iteration in 0..<iterations {
    let url = URL(fileURLWithPath: "/virtual/load-\(iteration).json")
    let bytes = Fuzzer.next(using: &random)
    storage.simulateExternalWrite(bytes, to: url)
    @Shared(.fileStorage(url)) var document = Document.initial
    let oracle = Fuzzer.decode(bytes)
    check(document == (oracle.flatMap { $0 } ?? .initial), "load \(iteration): \(document)")
    check(($document.loadError == nil) == (oracle != nil), "load \(iteration): loadError")
  }
}

private func fuzzPreservation(
  iterations: Int,
  directory: String,
  using random: inout SeededRandom
) -> Int {
  let storage = FileStorage.fileSystem(scheduler: ManualWriteScheduler())
  var kept = 0
  var undecodable = 0
  for iteration in 0..<iterations {
    let bytes = Fuzzer.next(using: &random)
    guard !bytes.isEmpty, Fuzzer.decode(bytes) == nil else { continue }
    undecodable += 1
    guard undecodable % 50 == 1 else { continue }
    let name = "document-\(iteration).json"
    let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
    guard (try? bytes.write(to: url)) != nil else { fuzzFailure("could not write \(name)") }
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var document = Document.initial
      check($document.loadError != nil, "preservation \(iteration): no loadError")
      $document.withLock { $0.count = iteration }
      storage.flushPendingWritesAndWait()
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let copies = names.filter { $0.hasPrefix("\(name).corrupt-") }
    check(copies.count == 1, "preservation \(iteration): \(copies.count) copies")
    let copy = URL(fileURLWithPath: directory).appendingPathComponent(copies[0])
    check((try? Data(contentsOf: copy)) == bytes, "preservation \(iteration): bytes differ")
    let saved = (try? Data(contentsOf: url)).flatMap { Fuzzer.decode($0) }
    check(saved??.count == iteration, "preservation \(iteration): the change was not written")
    kept += 1
  }
  return kept
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fuzzFailure(message()) }
}

private func fuzzFailure(_ message: String) -> Never {
  fail("FUZZ FAILURE: \(message)")
}

/// A value with a bit of every kind of JSON.
struct Document: Codable, Equatable {
  var title: String
  var count: Int
  var ratio: Double
  var tags: [String]
  var scores: [String: Int]
  var flag: Bool?
  var items: [Item]

  struct Item: Codable, Equatable {
    var id: Int
    var name: String
    var isDone: Bool
  }

  static let initial = Document(
    title: "",
    count: 0,
    ratio: 0,
    tags: [],
    scores: [:],
    flag: nil,
    items: []
  )

  static let samples = [
    initial,
    Document(
      title: "Groceries ✓ \"quoted\" \\ slash",
      count: -42,
      ratio: 0.125,
      tags: ["a", "", "ünïcödé", "😀"],
      scores: ["x": 1, "y": Int.max, "z": Int.min],
      flag: true,
      items: [
        Item(id: 1, name: "Milk", isDone: false),
        Item(id: 2, name: "Eggs\nand more", isDone: true),
      ]
    ),
    Document(
      title: String(repeating: "long ", count: 40),
      count: 7,
      ratio: 1e-300,
      tags: (0..<20).map { "tag \($0)" },
      scores: [:],
      flag: false,
      items: (0..<10).map { Item(id: $0, name: "item \($0)", isDone: $0.isMultiple(of: 2)) }
    ),
  ]
}

/// Makes bytes: random ones, valid documents, and documents with a few mutations.
enum Fuzzer {
  static let corpus: [Data] = Document.samples.flatMap { sample -> [Data] in
    let pretty = JSONEncoder()
    pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
    return [try! JSONEncoder().encode(sample), try! pretty.encode(sample)]
  }

  static let tokens: [String] = [
    "null", "true", "false", "0", "-0", "1e999", "-1e999", "9223372036854775808", "1.5",
    "\"\"", "\"\\u0000\"", "\"\\ud800\"", "\"\\", "[", "]", "{", "}", ",", ":", "[]", "{}",
    "\u{FEFF}", " ", "\n", "\"count\"", "\"items\"",
  ]

  /// The decoded document, `.some(nil)` for empty bytes (the default value), or `nil` if the
  /// bytes do not decode.
  static func decode(_ bytes: Data) -> Document?? {
    if bytes.isEmpty { return .some(nil) }
    guard let document = try? JSONDecoder().decode(Document.self, from: bytes) else { return nil }
    return .some(document)
  }

  static func next(using random: inout SeededRandom) -> Data {
    switch Int.random(in: 0..<10, using: &random) {
    case 0:
      return Data(
        (0..<Int.random(in: 0..<200, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      )
    case 1:
      return corpus.randomElement(using: &random)!
    default:
      var bytes = [UInt8](corpus.randomElement(using: &random)!)
      for _ in 0..<Int.random(in: 1...4, using: &random) { mutate(&bytes, using: &random) }
      return Data(bytes)
    }
  }

  private static func mutate(_ bytes: inout [UInt8], using random: inout SeededRandom) {
    guard !bytes.isEmpty else { return bytes = Array(tokens.randomElement(using: &random)!.utf8) }
    let index = Int.random(in: 0..<bytes.count, using: &random)
    switch Int.random(in: 0..<7, using: &random) {
    case 0:
      bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    case 1:
      bytes[index] = Array("\"{}[],:\\0-e.".utf8).randomElement(using: &random)!
    case 2:
      bytes.insert(contentsOf: tokens.randomElement(using: &random)!.utf8, at: index)
    case 3:
      bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...16, using: &random)))
    case 4:
      bytes.removeSubrange(index...)
    case 5:
      let end = min(bytes.count, index + Int.random(in: 1...32, using: &random))
      bytes.insert(contentsOf: bytes[index..<end], at: index)
    default:
      bytes[index] = UInt8.random(in: 0...255, using: &random)
    }
  }
}
