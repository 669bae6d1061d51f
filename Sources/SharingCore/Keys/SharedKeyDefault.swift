extension SharedReaderKey {
  /// A key paired with a default value, so that shared values can be created from the key
  /// alone.
  ///
  /// ```swift
  /// extension SharedReaderKey where Self == AppStorageKey<Bool>.Default {
  ///   static var isHapticsEnabled: Self {
  ///     Self[.appStorage("isHapticsEnabled"), default: true]
  ///   }
  /// }
  ///
  /// @Shared(.isHapticsEnabled) var isHapticsEnabled
  /// ```
  public typealias Default = _SharedKeyDefault<Self>
}

/// A key paired with a default value. Spelled ``SharedReaderKey/Default`` at use sites.
///
/// It does everything its key does (``_ForwardingKey``): shared values created from it are
/// those of the key, saved, coordinated and identified as the key's.
public struct _SharedKeyDefault<Base: SharedReaderKey>: _ForwardingKey {
  /// The key paired with the default.
  public let base: Base
  let defaultValue: @Sendable () -> Base.Value

  /// Pairs a key with the value used when its store has none.
  ///
  /// - Parameters:
  ///   - key: The key to read and write.
  ///   - value: The default value, evaluated only when it is needed.
  public static subscript(
    _ key: Base,
    default value: @escaping @autoclosure @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, defaultValue: value)
  }

  /// The default value, used when the store has none.
  ///
  /// ```swift
  /// let key: AppStorageKey<Bool>.Default = .isHapticsEnabled
  /// key.initialValue  // true
  /// ```
  public var initialValue: Base.Value { defaultValue() }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {}

extension _SharedKeyDefault: CoordinatedSharedKey where Base: CoordinatedSharedKey {}

extension _SharedKeyDefault: CustomStringConvertible {
  /// The underlying key's description.
  public var description: String { String(reflecting: base) }
}
