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
/// Every change is delivered, in order, however slowly the sequence is consumed; the
/// sequence ends when the consuming task is cancelled.
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
    // NB: Reading and yielding is one step: two writers notifying at once could otherwise
    //     yield their reads in the opposite order, and end the sequence on an older value.
    let yielding = Locked(continuation)
    let yieldCurrentValue = { @Sendable in
      yielding.withLock { _ = $0.yield(reference.read()) }
    }
    let token = reference.addObserver(yieldCurrentValue)
    continuation.onTermination = { _ in token.remove() }
    yieldCurrentValue()
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
