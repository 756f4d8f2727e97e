// Objective-C without Foundation (no Apple SDK on the build machine): a root
// class and a store whose method raises an NSException.
#include "CrashApp.h"

typedef struct objc_class *Class;
typedef struct objc_object { Class isa; } *id;
extern id class_createInstance(Class cls, unsigned long extraBytes);

__attribute__((objc_root_class))
@interface CAObject {
    Class isa;
}
+ (id)alloc;
- (id)init;
@end

__attribute__((objc_root_class))
@interface NSException
+ (void)raise:(id)name format:(id)format, ...;
@end

@interface CAProfileStore : CAObject
- (int)loadProfileNamed:(const char *)name;
@end

@interface CASceneDelegate : CAObject
- (int)scene:(id)scene willConnectToSession:(id)session options:(id)options;
@end

/// UIKit calls these from -[UIViewController _sendViewDidLoad…]; the scenarios
/// start here so crash stacks have real UIKit frames under the app frames.
@interface CAProfileViewController : CAObject
- (void)viewDidLoad;
@end

@interface CAImportViewController : CAObject
- (void)viewDidLoad;
@end

int ca_last_status;

@implementation CAObject
+ (id)alloc {
    return class_createInstance((Class)self, 0);
}
- (id)init {
    return (id)self;
}
@end

@implementation CAProfileStore
- (int)loadProfileNamed:(const char *)name {
    if (ca_lookup_record(name) == 0) {
        [NSException raise:@"CAProfileCorruptedException" format:@"Profile %s is missing or corrupted", name];
    }
    return 1;
}
@end

@implementation CASceneDelegate
- (int)scene:(id)scene willConnectToSession:(id)session options:(id)options {
    return ca_wait_for_migration(3) + 1;
}
@end

int ca_objc_load_profile(int scenario) {
    CAProfileStore *store = (CAProfileStore *)[[CAProfileStore alloc] init];
    return [store loadProfileNamed:"legacy-profile"] + scenario;
}

int ca_objc_connect_scene(int scenario) {
    CASceneDelegate *delegate = (CASceneDelegate *)[[CASceneDelegate alloc] init];
    return [delegate scene:0 willConnectToSession:0 options:0] + scenario;
}

@implementation CAProfileViewController
- (void)viewDidLoad {
    ca_last_status = app_launch_swift(CAScenarioSwiftTrap) + 1;
}
@end

@implementation CAImportViewController
- (void)viewDidLoad {
    ca_last_status = ca_import_records(CAScenarioNullDeref) + 1;
}
@end
