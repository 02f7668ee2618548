public import Foundation

/// The base of PhotoKit's change requests.
///
/// Requests exist only inside a `performChanges` block: making or using one elsewhere stops
/// the process, as Apple's raise `NSInternalInconsistencyException`.
public class PHChangeRequest: NSObject {
    let context: ChangeContext

    init(context: ChangeContext) {
        self.context = context
        super.init()
    }

    /// Stops the process if the block this request belongs to has ended.
    func requireOpen(_ api: String) {
        guard context.isOpen, ChangeContext.current === context else {
            fatalError("\(api) was called outside the change block that made the request")
        }
    }
}
