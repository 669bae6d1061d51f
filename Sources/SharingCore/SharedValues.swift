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
/// after the last of them. The sequence follows the shared value it was created from to the
/// key it moves to with ``Shared/load(_:)``. It ends when the consuming task is cancelled.
public struct SharedValues<Value: Sendable>: AsyncSequence, Sendable {
  /// The type of element produced: the shared value.
  public typealias Element = Value
  /// The sequence never fails.
  public typealias Failure = Never

  let reference: SharedReference<Value>

  /// Starts observing the shared value.
  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
    let observation = ValueObservation(of: reference) { continuation.yield($0) }
    continuation.onTermination = { [weak observation] _ in observation?.cancel() }
    observation.valueDidChange()
    return Iterator(base: stream.makeAsyncIterator(), observation: observation)
  }

  /// The iterator of a ``SharedValues`` sequence.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<Value>.Iterator
    /// Kept alive by the iterator only: it stops observing when the iterator goes away.
    let observation: AnyObject

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

/// Observes the value of a shared value's reference, following the reference to wherever
/// it is redirected (``Shared/load(_:)``, assigning a projected value).
private final class ValueObservation<Value: Sendable>: Sendable {
  private let holder: SharedReference<Value>
  private let yield: @Sendable (Value) -> Void
  private let drain = YieldDrain()
  /// The reference observed and the registration there; `nil` once cancelled.
  private let observed = Locked<Observed?>(Observed())

  private struct Observed {
    var target: SharedReference<Value>?
    var token: ObserverToken?
  }

  init(of holder: SharedReference<Value>, yield: @escaping @Sendable (Value) -> Void) {
    self.holder = holder
    self.yield = yield
  }

  deinit {
    cancel()
  }

  /// Yields the latest value, first moving the observation if the holder was redirected.
  func valueDidChange() {
    drain.run {
      follow()
      // NB: Outside the lock: reading may run a reader's transform, which is user code.
      yield(holder.resolvedRead())
    }
  }

  func cancel() {
    observed.withLock { observed in
      defer { observed = nil }
      return observed?.token
    }?.remove()
  }

  // NB: Only called from the drain, so one call at a time.
  private func follow() {
    let target = holder.resolved
    guard observed.withLock({ $0 != nil && $0?.target !== target }) else { return }
    let token = target.addObserver { [weak self] in self?.valueDidChange() }
    let replaced = observed.withLock { observed -> ObserverToken? in
      guard observed != nil else { return token }
      defer { observed = Observed(target: target, token: token) }
      return observed?.token
    }
    replaced?.remove()
  }
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
      yield()
    }
  }
}
