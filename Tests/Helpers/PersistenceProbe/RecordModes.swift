import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// `file-records <count>`: creates and drops a shared value of `<count>` distinct files, each
/// changed once, after as many cycles to warm up; prints `records <n> growth <bytes>` to
/// standard error: the file records left, and how much the resident memory grew.
func fileRecords(count: Int) {
  let storage = FileStorage.inMemory
  func cycle(_ range: Range<Int>) {
    withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      for index in range {
        let url = URL(fileURLWithPath: "/virtual/\(index).json")
        @Shared(.fileStorage(url)) var value = 0
        $value.withLock { $0 = index }
        // NB: Removed, so that the virtual disk does not grow with the files.
        storage.simulateExternalWrite(nil, to: url)
      }
    }
  }
  cycle(0..<count)
  let before = residentBytes()
  cycle(count..<(2 * count))
  let growth = residentBytes() - before
  FileHandle.standardError.write(
    Data("records \(FileStorage.liveFileRecordCount) growth \(growth)\n".utf8)
  )
}

/// The resident memory of the process, from `/proc/self/statm`.
private func residentBytes() -> Int {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return 0
  }
  let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
