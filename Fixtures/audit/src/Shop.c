// Shop: the app's executable (audit fixture). Two compile units: this file and Cart.c.
int cart_total(const int *prices, int count);

int main(int argc, char **argv) {
    (void)argv;
    int prices[3] = {argc, 2 * argc, 3 * argc};
    return cart_total(prices, 3);
}
