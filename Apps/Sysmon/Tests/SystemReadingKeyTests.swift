import AppTestSupport
import Dispatch
import Foundation
import SharingCore
import SysmonKit
import Testing

/// The custom key, reading a temporary file instead of `/proc/loadavg`.
@Suite struct SystemReadingKeyTests {
  @Test func firstReadingIsMadeInTheBackgroundWhileTheReaderIsLoading() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("loadavg")
      try directory.replace("loadavg", with: "0.50 0.40 0.30 1/100 4242\n")
      let queue = DispatchQueue(label: "held")
      queue.suspend()

      let loadAverage = SharedReader(key(file, queue: queue))
      #expect(loadAverage.isLoading)
      #expect(loadAverage.wrappedValue == nil)

      queue.resume()
      await expectEventually("the first reading") { !loadAverage.isLoading }
      #expect(
        loadAverage.wrappedValue
          == LoadAverage(lastMinute: 0.5, last5Minutes: 0.4, last15Minutes: 0.3)
      )
      #expect(loadAverage.loadError == nil)
    }
  }

  @Test func changedFileIsPlayedBackToTheReader() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("loadavg")
      try directory.replace("loadavg", with: "0.50 0.40 0.30 1/100 4242\n")
      let loadAverage = SharedReader(key(file))
      await expectEventually("the first reading") { loadAverage.wrappedValue != nil }

      try directory.replace("loadavg", with: "1.50 0.90 0.30 2/100 4243\n")

      await expectEventually("the new reading") { loadAverage.wrappedValue?.lastMinute == 1.5 }
    }
  }

  @Test func missingFileGivesALoadError() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("missing/loadavg")
      let loadAverage = SharedReader(key(file))
      await expectEventually("the failed reading") { !loadAverage.isLoading }

      #expect(loadAverage.wrappedValue == nil)
      let error = try #require(loadAverage.loadError as? SystemReadingError)
      #expect(error == .unreadable(file, reason: "no such file or directory"))
      #expect("\(error)" == "Cannot read \(file.path): no such file or directory.")
    }
  }

  @Test func malformedFileGivesALoadErrorAndKeepsTheLastReadingUntilItIsFixed() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("loadavg")
      try directory.replace("loadavg", with: "0.50 0.40 0.30 1/100 4242\n")
      let loadAverage = SharedReader(key(file))
      await expectEventually("the first reading") { loadAverage.wrappedValue != nil }

      try directory.replace("loadavg", with: "not a load average\n")
      await expectEventually("the error") { loadAverage.loadError != nil }
      #expect(loadAverage.loadError as? SystemReadingError == .malformed(file))
      #expect(loadAverage.wrappedValue?.lastMinute == 0.5)

      try directory.replace("loadavg", with: "2.00 1.00 0.50 1/100 4242\n")
      await expectEventually("the fixed reading") { loadAverage.wrappedValue?.lastMinute == 2 }
      #expect(loadAverage.loadError == nil)
    }
  }

  @Test func readersOfOneFileSharePollingWhichStopsWithTheLastReader() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("loadavg")
      try directory.replace("loadavg", with: "0.50 0.40 0.30 1/100 4242\n")
      var readers: [SharedReader<LoadAverage?>] = [
        SharedReader(key(file)), SharedReader(key(file)),
      ]
      #expect(activePolls(of: file) == 1)

      readers.removeFirst()
      #expect(activePolls(of: file) == 1)

      readers.removeAll()
      await expectEventually("polling to stop") { activePolls(of: file) == 0 }
    }
  }

  private func key(
    _ file: URL,
    queue: DispatchQueue = DispatchQueue(label: "test")
  ) -> SystemReadingKey<LoadAverage> {
    SystemReadingKey(url: file, interval: .milliseconds(10), queue: queue)
  }
}
