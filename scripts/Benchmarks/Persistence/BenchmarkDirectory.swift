import Foundation
import SharingPersistence

/// A directory for the files of the persistence benchmarks, on the real disk, removed by
/// ``removeBenchmarkDirectory()`` once every pending write has landed.
let benchmarkDirectory: URL = {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "SharingBenchmarks-\(ProcessInfo.processInfo.processIdentifier)",
    isDirectory: true
  )
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}()

/// A fresh subdirectory of ``benchmarkDirectory``.
func makeBenchmarkDirectory(_ name: String) -> URL {
  let url = benchmarkDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Writes what is pending, then removes the benchmarks' files.
func removeBenchmarkDirectory() {
  flushPendingWritesAndWait()
  try? FileManager.default.removeItem(at: benchmarkDirectory)
}
