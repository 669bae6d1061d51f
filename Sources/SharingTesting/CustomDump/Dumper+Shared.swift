import SharingCore

extension Dumper {
  /// A shared value: its value after the number of its reference, or a repeat mark.
  ///
  /// References are numbered per value type in the order they are met, as swift-custom-dump
  /// numbers objects.
  func sharedNode<Value>(_ shared: some DumpedWithIdentity<Value>) -> DumpNode {
    let typeName = TypeName.of(Value.self)
    if let number = referenceNumbers[shared.referenceIdentity] {
      return .leaf("#\(number) \(typeName)(↩︎)")
    }
    let number = referenceCounts[typeName, default: 0] + 1
    referenceCounts[typeName] = number
    referenceNumbers[shared.referenceIdentity] = number
    var value = node(shared.customDumpValue)
    value.text = "#\(number) " + value.text
    return value
  }
}
