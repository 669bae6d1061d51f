import SharingDependencies

/// An asynchronous sequence of a shared value: its current value, then its value after each
/// change. Reached through ``Shared/values`` and ``SharedReader/values``.
///
/// ```swift
/// for await count in $count.values {
///   print("count is now", count)
/// }
/// ```
///
/// Values are delivered in order, however slowly the sequence is consumed: every change made
/// from one thread, and for changes made from several threads at once, at least the value
/// after the last of them. The sequence observes the reference it was created from: after
/// ``Shared/load(_:)`` switches keys, create a new one. It ends when the consuming task is
/// cancelled.
public struct SharedValues<Value: Sendable>: AsyncSequence, Sendable {
  /// The type of element produced: the shared value.
  public typealias Element = Value
  /// The sequence never fails.
  public typealias Failure = Never

  let reference: SharedReference<Value>

  /// Starts observing the shared value.
  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
    let reference = self.reference.resolved
    let drain = YieldDrain()
    let yieldLatestValue = { @Sendable in
      drain.run { continuation.yield(reference.read()) }
    }
    let token = reference.addObserver(yieldLatestValue)
    continuation.onTermination = { _ in token.remove() }
    yieldLatestValue()
    return Iterator(base: stream.makeAsyncIterator())
  }

  /// The iterator of a ``SharedValues`` sequence.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<Value>.Iterator

    /// The next value: the current value first, then the value after each change.
    public mutating func next() async -> Value? {
      await base.next()
    }

    /// The next value, resumed on the given actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
      await base.next(isolation: actor)
    }
  }
}

extension Shared where Value: Sendable {
  /// The current value, then the value after each change, as an asynchronous sequence.
  public var values: SharedValues<Value> { SharedValues(reference: reference) }
}

extension SharedReader where Value: Sendable {
  /// The current value, then the value after each change, as an asynchronous sequence.
  public var values: SharedValues<Value> { SharedValues(reference: reference) }
}

/// Runs yields one at a time, the latest requested last, without holding a lock while one
/// runs: a request made while another thread yields is run by that thread when it is done.
private final class YieldDrain: Sendable {
  private let state = Locked((isRunning: false, isRequested: false))

  func run(_ yield: () -> Void) {
    let claimed = state.withLock { state in
      state.isRequested = true
      guard !state.isRunning else { return false }
      state.isRunning = true
      return true
    }
    guard claimed else { return }
    while state.withLock({ state in
      guard state.isRequested else {
        state.isRunning = false
        return false
      }
      state.isRequested = false
      return true
    }) {
      // NB: Outside the lock: reading may run a reader's transform, which is user code.
      yield()
    }
  }
}
