import SharingCore

extension Dumper {
  /// A shared value: its value after the number of its reference, or a repeat mark.
  func sharedNode<Value>(_ shared: some DumpedWithIdentity<Value>, context: Context) -> DumpNode {
    let typeName = TypeName.of(Value.self)
    let (number, isRepeat) = context.references.number(
      of: shared.referenceIdentity,
      typeName: typeName
    )
    guard !isRepeat else { return .leaf("#\(number) \(typeName)(↩︎)") }
    var value = node(shared.customDumpValue, context: context)
    value.text = "#\(number) " + value.text
    return value
  }
}

/// The shared references met while dumping one value, numbered per value type in the order
/// they are met, as swift-custom-dump numbers objects.
final class DumpedReferences {
  private var numbers: [ObjectIdentifier: Int] = [:]
  private var counts: [String: Int] = [:]

  /// The number of a reference, and whether it was met before.
  func number(of identity: ObjectIdentifier, typeName: String) -> (Int, isRepeat: Bool) {
    if let number = numbers[identity] { return (number, true) }
    let number = counts[typeName, default: 0] + 1
    counts[typeName] = number
    numbers[identity] = number
    return (number, false)
  }
}
