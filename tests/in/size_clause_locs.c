// The sizes the clauses give are host expressions located at each clause's
// argument (the `at "file":line:col` of each size_or in the launch), not at
// the construct: what is said about a size points at the clause.
void scale(int n, int g, int w, int v, float *restrict a) {
#pragma acc parallel loop gang worker vector num_gangs(g) num_workers(w) vector_length(v)
  for (int i = 0; i < n; i++)
    a[i] = 2.0f * a[i];
#pragma acc parallel copy(a[0:n])
  {
#pragma acc loop gang(num: g + 1) worker(w) vector(v * 2)
    for (int i = 0; i < n; i++)
      a[i] = a[i] + 1.0f;
  }
}
