// Shop's second compile unit.
static int __attribute__((noinline)) add_price(int total, int price) { return total + price; }

int cart_total(const int *prices, int count) {
    int total = 0;
    for (int i = 0; i < count; i++) total = add_price(total, prices[i]);
    return total;
}
