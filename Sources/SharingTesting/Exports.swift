@_exported public import SharingDependencies
