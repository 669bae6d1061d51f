import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Waits until `condition` holds; exits with status 2 if it does not within 30 seconds (scaled
/// under ThreadSanitizer, as the tests waiting for this process are).
func wait(for description: @autoclosure () -> String, until condition: () -> Bool) {
  let deadline = Date().addingTimeInterval(30 * Double(ThreadSanitizer.timeScale))
  while !condition() {
    guard Date() < deadline else { fail("Timed out waiting for \(description())", status: 2) }
    usleep(2_000)
  }
}

/// Prints a message to standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
  FileHandle.standardError.write(Data("\(message)\n".utf8))
  exit(status)
}

/// Creates an empty file, telling the test that a step was reached.
func touch(_ path: String) {
  guard FileManager.default.createFile(atPath: path, contents: nil) else {
    fail("Could not create \(path)")
  }
}

/// Whether a file exists at `path`.
func exists(_ path: String) -> Bool {
  FileManager.default.fileExists(atPath: path)
}

/// Appends lines to a file with single `write` calls, so that a line is either whole or, if
/// the process is killed during the call, the last one and incomplete.
final class LineLog {
  private let descriptor: Int32

  init(path: String) {
    descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { fail("Could not open \(path)") }
  }

  func append(_ line: String) {
    let bytes = Array("\(line)\n".utf8)
    guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count
    else { fail("Could not append to the log") }
  }
}

/// The value the crash tests write: every element of `filler` equals `sequence`, so a file
/// holding parts of two writes cannot decode to a consistent value.
struct Payload: Codable, Equatable, Sendable {
  var sequence: Int
  var filler: [Int]

  static let fillerCount = 4_000

  init(sequence: Int) {
    self.sequence = sequence
    self.filler = Array(repeating: sequence, count: Self.fillerCount)
  }

  var isConsistent: Bool {
    filler.count == Self.fillerCount && filler.allSatisfy { $0 == sequence }
  }
}
