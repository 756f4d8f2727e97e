// Objective-C as clang emits it for an app: a method (DW_AT_name "-[Class sel]", no
// linkage name) and a block inside it (`__…-[Class sel]_block_invoke`).
// No Foundation (no Apple SDK here): a root class.
typedef struct objc_class *Class;

extern int shapes_sink(int);
extern void shapes_run_block(int (^block)(int));

__attribute__((objc_root_class))
@interface SHObject {
    Class isa;
}
@end

@interface SHUploader : SHObject
- (int)uploadItems:(int)count;
@end

@implementation SHObject
@end

@implementation SHUploader
- (int)uploadItems:(int)count {
    __block int sent = 0;
    shapes_run_block(^int(int item) {
        sent += item;
        return shapes_sink(sent * 3 + count);
    });
    return sent;
}
@end

int shapes_objc_entry(int n) {
    return [(SHUploader *)0 uploadItems:n];
}
