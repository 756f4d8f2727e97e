// Objective-C without Foundation (no Apple SDK here): a root class and a method that
// inlines a C helper.
typedef struct objc_class *Class;

__attribute__((objc_root_class))
@interface DMObject {
    Class isa;
}
@end

@implementation DMObject
@end

@interface DMGreeter : DMObject
+ (int)greetTimes:(int)times;
@end

static inline int dm_repeat(int value, int times) {
    int total = 0;
    for (int index = 0; index < times; ++index) total += value + index;
    return total;
}

@implementation DMGreeter
+ (int)greetTimes:(int)times {
    return dm_repeat(7, times) + 1;
}
@end

int dm_greeter_greet(int times) {
    return [DMGreeter greetTimes:times];
}
