package import Dispatch
public import Foundation
public import SharingCore

/// A ``SharedReaderKey`` for a reading of the running system, such as the load average.
///
/// ```swift
/// @SharedReader(.loadAverage()) var loadAverage: LoadAverage?
/// ```
///
/// - The value is `nil` until the first reading, which is made in the background:
///   ``SharedReader/isLoading`` is `true` until then.
/// - The file is read again every `interval` while any reader of the key exists, and a
///   changed reading is played back to the readers. Reading stops when the last reader goes
///   away.
/// - A file that cannot be read or parsed sets ``SharedReader/loadError``, and the last
///   reading is kept; a later successful reading clears the error.
public struct SystemReadingKey<Reading: SystemReading>: SharedReaderKey {
  /// The file the reading comes from.
  public let url: URL
  /// How often the file is read again.
  public let interval: Duration
  private let queue: DispatchQueue

  /// Creates a key.
  ///
  /// - Parameters:
  ///   - url: The file the reading comes from.
  ///   - interval: How often the file is read again.
  ///   - queue: Where the file is read: a test suspends it to keep a load pending.
  package init(url: URL, interval: Duration, queue: DispatchQueue) {
    self.url = url.standardizedFileURL
    self.interval = interval
    self.queue = queue
  }

  /// The identity of a key: its file and the kind of reading.
  public struct ID: Hashable, Sendable {
    let path: String
    let reading: ObjectIdentifier
  }

  /// The file and the kind of reading.
  public var id: ID {
    ID(path: url.path, reading: ObjectIdentifier(Reading.self))
  }

  /// Reads the file in the background, then resumes.
  public func load(context: LoadContext<Reading?>, continuation: LoadContinuation<Reading?>) {
    queue.async {
      continuation.resume(with: read().forShared)
    }
  }

  /// Reads the file every ``interval``, and plays back each changed reading or error.
  public func subscribe(
    context: LoadContext<Reading?>,
    subscriber: SharedSubscriber<Reading?>
  ) -> SharedSubscription {
    let poller = ReadingPoller(url: url, interval: interval, queue: queue, read: read) {
      subscriber.yield(with: $0.forShared)
    }
    return SharedSubscription { poller.cancel() }
  }

  private func read() -> Result<Reading, SystemReadingError> {
    Result { () throws(SystemReadingError) in
      let contents = try SystemFile.contents(of: url)
      guard let reading = Reading(parsing: contents) else { throw .malformed(url) }
      return reading
    }
  }
}

extension SystemReadingKey: CustomStringConvertible {
  /// The key and its file, such as `SystemReadingKey<LoadAverage>(/proc/loadavg)`.
  public var description: String {
    "SystemReadingKey<\(Reading.self)>(\(url.path))"
  }
}

extension Result where Failure == SystemReadingError {
  /// The result as the continuations and subscribers of a `Reading?` value take it: a
  /// reading, never `nil` (which would mean "no value, use the default"), or any error.
  fileprivate var forShared: Result<Success??, any Error> {
    map { .some(.some($0)) }.mapError { $0 }
  }
}
