/// A type that can load and subscribe to a value in an external store.
///
/// Conform to this protocol to make a store readable through ``SharedReader``:
///
/// ```swift
/// struct UptimeKey: SharedReaderKey {
///   var id: String { "uptime" }
///   func load(context: LoadContext<Double>, continuation: LoadContinuation<Double>) {
///     continuation.resume(with: Result { try readUptime() })
///   }
///   func subscribe(
///     context: LoadContext<Double>, subscriber: SharedSubscriber<Double>
///   ) -> SharedSubscription {
///     let timer = startTimer { subscriber.yield(with: Result { try readUptime() }) }
///     return SharedSubscription { timer.cancel() }
///   }
/// }
/// ```
///
/// Every ``SharedReader`` and ``Shared`` created from keys with the same ``id`` shares one
/// reference to the value, so a change made through one is seen by all.
public protocol SharedReaderKey<Value>: Sendable {
  /// The type of value stored.
  associatedtype Value: Sendable

  /// The type that identifies the stored value.
  associatedtype ID: Hashable = Self

  /// The identity of the stored value: keys with equal identities share one reference.
  var id: ID { get }

  /// Loads the value from the store.
  ///
  /// Resume the continuation with the loaded value, with
  /// ``LoadContinuation/resumeReturningInitialValue()`` if the store has no value, or with an
  /// error. It may be resumed later, from any thread: the shared value reports
  /// ``SharedReader/isLoading`` until then.
  ///
  /// > Important: Resume the continuation exactly once.
  ///
  /// - Parameters:
  ///   - context: Why the value is loaded: when a shared value is first created
  ///     (``LoadContext/initialValue(_:)``) or by ``SharedReader/load()``
  ///     (``LoadContext/userInitiated``).
  ///   - continuation: The continuation to resume with the result.
  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>)

  /// Subscribes to changes made to the store by anything other than this process's shared
  /// value (another process, another API, an editor).
  ///
  /// - Parameters:
  ///   - context: The context the subscription is created in.
  ///   - subscriber: The subscriber to feed changes to.
  /// - Returns: A subscription, cancelled when the last shared value using the key goes away.
  func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription

  /// The store that keeps the shared reference of this key's value, if the store keeps
  /// references rather than copies of values, as an in-memory key's does; `nil` for every
  /// other key.
  var _referenceStore: _ReferenceStore? { get }
}

extension SharedReaderKey {
  /// `nil`: the store keeps copies of values, handed to it by saves.
  public var _referenceStore: _ReferenceStore? { nil }
}

extension SharedReaderKey where ID == Self {
  /// A key that is its own identity.
  public var id: ID { self }
}
