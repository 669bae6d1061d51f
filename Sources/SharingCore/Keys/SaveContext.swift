/// The reason a value is saved to a ``SharedKey``.
public enum SaveContext: Hashable, Sendable {
  /// The value changed; the key may throttle or coalesce the write.
  case didSet

  /// ``Shared/save()`` was called; the key should write at once.
  case userInitiated
}
