void slow_in_lib(void);
int main(void) {
  slow_in_lib();
  return 0;
}
