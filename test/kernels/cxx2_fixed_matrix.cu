// A fixed-size matrix class template: member function templates (products with any column count,
// conversion to another element type), operator templates, out-of-line members, a static factory,
// and a partial specialisation of a helper for square matrices (trace, identity).
#include <cstdio>

template <typename T, int R, int C>
struct Matrix {
  T a[R][C];
  __device__ T &operator()(int r, int c) { return a[r][c]; }
  __device__ const T &operator()(int r, int c) const { return a[r][c]; }
  template <int K> __device__ Matrix<T, R, K> operator*(const Matrix<T, C, K> &o) const;
  template <typename U> __device__ Matrix<U, R, C> as() const;
  template <typename S> __device__ Matrix &scale(S s) { for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) a[r][c] = a[r][c] * s; return *this; }
  __device__ Matrix<T, C, R> transposed() const;
  __device__ static Matrix filled(T v);
  __device__ T sum() const { T s = T(); for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) s += a[r][c]; return s; }
};
template <typename T, int R, int C> template <int K>
__device__ Matrix<T, R, K> Matrix<T, R, C>::operator*(const Matrix<T, C, K> &o) const {
  Matrix<T, R, K> m;
  for (int r = 0; r < R; r++)
    for (int k = 0; k < K; k++) { T s = T(); for (int c = 0; c < C; c++) s += a[r][c] * o.a[c][k]; m.a[r][k] = s; }
  return m;
}
template <typename T, int R, int C> template <typename U>
__device__ Matrix<U, R, C> Matrix<T, R, C>::as() const {
  Matrix<U, R, C> m;
  for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) m.a[r][c] = static_cast<U>(a[r][c]);
  return m;
}
template <typename T, int R, int C> __device__ Matrix<T, C, R> Matrix<T, R, C>::transposed() const {
  Matrix<T, C, R> m;
  for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) m.a[c][r] = a[r][c];
  return m;
}
template <typename T, int R, int C> __device__ Matrix<T, R, C> Matrix<T, R, C>::filled(T v) {
  Matrix m;
  for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) m.a[r][c] = v;
  return m;
}

template <typename M> struct Square { static const bool value = false; };
template <typename T, int N> struct Square<Matrix<T, N, N> > {
  static const bool value = true;
  __device__ static T trace(const Matrix<T, N, N> &m) { T s = T(); for (int i = 0; i < N; i++) s += m.a[i][i]; return s; }
  __device__ static Matrix<T, N, N> identity() { Matrix<T, N, N> m = Matrix<T, N, N>::filled(T(0)); for (int i = 0; i < N; i++) m.a[i][i] = T(1); return m; }
};

__global__ void fixedMatrix(const float *in, float *fo, int *io) {
  int t = threadIdx.x;
  Matrix<float, 2, 3> A;
  Matrix<float, 3, 2> B;
  for (int r = 0; r < 2; r++) for (int c = 0; c < 3; c++) { A(r, c) = in[(t + r * 3 + c) % 64]; B(c, r) = in[(t + 7 + r + c * 2) % 64]; }
  Matrix<float, 2, 2> P = A * B;
  Matrix<float, 3, 3> Q = B * A;
  fo[t * 4 + 0] = P.sum();
  fo[t * 4 + 1] = Square<Matrix<float, 3, 3> >::trace(Q) + Square<Matrix<float, 2, 2> >::trace(P);
  fo[t * 4 + 2] = (A.transposed() * Square<Matrix<float, 2, 2> >::identity()).sum();
  Matrix<int, 2, 3> Ai = A.scale(2).as<int>();
  io[t * 3 + 0] = Ai.sum();
  io[t * 3 + 1] = Square<Matrix<int, 2, 3> >::value * 10 + Square<Matrix<int, 2, 2> >::value + Square<int>::value * 100;
  io[t * 3 + 2] = Matrix<int, 3, 1>::filled(t).sum();
  fo[t * 4 + 3] = A(1, 2);
}

int main() {
  const int T = 32;
  float hin[64];
  for (int j = 0; j < 64; j++) hin[j] = (float)((j * 13) % 9) * 0.25f - 1.0f;
  float *din, *df; int *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&df, T * 4 * sizeof(float)); cudaMalloc(&di, T * 3 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  fixedMatrix<<<1, T>>>(din, df, di);
  float hf[T * 4]; int hi[T * 3];
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    float A[2][3], B[3][2], P[2][2], Q[3][3];
    for (int r = 0; r < 2; r++) for (int c = 0; c < 3; c++) { A[r][c] = hin[(t + r * 3 + c) % 64]; B[c][r] = hin[(t + 7 + r + c * 2) % 64]; }
    float ps = 0, tr = 0, ts = 0;
    for (int r = 0; r < 2; r++) for (int k = 0; k < 2; k++) { float s = 0; for (int c = 0; c < 3; c++) s += A[r][c] * B[c][k]; P[r][k] = s; ps += s; }
    for (int r = 0; r < 3; r++) for (int k = 0; k < 3; k++) { float s = 0; for (int c = 0; c < 2; c++) s += B[r][c] * A[c][k]; Q[r][k] = s; }
    tr = (Q[0][0] + Q[1][1] + Q[2][2]) + (P[0][0] + P[1][1]);
    // A^T (3x2) times the 2x2 identity, summed in the product's order
    for (int r = 0; r < 3; r++) for (int k = 0; k < 2; k++) { float s = 0; for (int c = 0; c < 2; c++) s += A[c][r] * (c == k ? 1.0f : 0.0f); ts += s; }
    int isum = 0;
    for (int r = 0; r < 2; r++) for (int c = 0; c < 3; c++) isum += (int)(A[r][c] * 2);
    float ef[4] = {ps, tr, ts, A[1][2] * 2};
    int ei[3] = {isum, 1, 3 * t};
    for (int k = 0; k < 4; k++) if (hf[t * 4 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_fixed_matrix: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 4 + k], ef[k]); }
    for (int k = 0; k < 3; k++) if (hi[t * 3 + k] != ei[k]) { if (bad++ < 5) printf("FAIL cxx2_fixed_matrix: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 3 + k], ei[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_fixed_matrix\n");
  return 0;
}
