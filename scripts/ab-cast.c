// SPDX-License-Identifier: MIT OR Apache-2.0
// A/B timing of tcast_cast on data in cache: two builds of libtensorcast.so loaded side by
// side in one process and timed in turns (best of ROUNDS each, on the thread's CPU clock),
// N elements cast 64 times per timing; prints both rates and new/old. The source values are
// the cast bench's: magnitudes 2^-10..2^10, half of them negative. On a shared machine
// this ratio holds where absolute rates move by 20-30% from minute to minute.
//   cc -O2 -Iinclude scripts/ab-cast.c -o build/ab-cast -ldl -lm
//   build/ab-cast OLD.so NEW.so FROM TO [N=65536] [ROUNDS=201]
// FROM and TO are TCAST_DTYPE_* codes (FLOAT 1, FLOAT16 10, BFLOAT16 16, FLOAT4E2M1 23, ...);
// a FROM other than FLOAT, DOUBLE, FLOAT16 and BFLOAT16 gets random bits. With
// TCAST_DISABLE_CPU_FEATURES=avx512f it times the AVX2 tier.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include "tensorcast.h"
typedef tcast_status (*cast_fn)(const tcast_tensor*, const tcast_tensor*, const tcast_cast_options*, tcast_error*);
static double now(void){struct timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  if(argc<5){fprintf(stderr,"usage: ab OLD.so NEW.so FROM TO [N] [ROUNDS]\n");return 2;}
  cast_fn f[2];
  for(int k=0;k<2;k++){void*h=dlopen(argv[1+k],RTLD_NOW|RTLD_LOCAL); if(!h){fprintf(stderr,"%s\n",dlerror());return 1;} f[k]=(cast_fn)dlsym(h,"tcast_cast");}
  int from=atoi(argv[3]), to=atoi(argv[4]); long n=argc>5?atol(argv[5]):65536; int rounds=argc>6?atoi(argv[6]):201;
  int esz = from==1?4:(from==11?8:2);
  unsigned char*src=malloc(n*8), *dst=malloc(n*8);
  uint64_t s=0x2545f4914f6cdd1dULL;
  for(long i=0;i<n;i++){ s^=s<<13; s^=s>>7; s^=s<<17; double u=(double)(s>>11)/9007199254740992.0;
    float x=(float)(__builtin_exp2(u*20-10)*((s&1)?-1:1));
    if(esz==4) ((float*)src)[i]=x; else if(esz==2){ uint32_t b; __builtin_memcpy(&b,&x,4); ((uint16_t*)src)[i]= from==16? (uint16_t)(b>>16) : (uint16_t)(s>>20);} }
  int64_t shape[1]={n};
  tcast_tensor in={src,(uint64_t)(n*esz),shape,NULL,1,from};
  tcast_tensor out={dst,(uint64_t)(n*8),shape,NULL,1,to};
  int rep = 64; double best[2]={1e9,1e9};
  for(int r=0;r<rounds;r++) for(int j=0;j<2;j++){ int k=(j+r)&1; double t=now();
    for(int i=0;i<rep;i++) if(f[k](&in,&out,NULL,NULL)){fprintf(stderr,"cast failed\n");return 1;}
    t=now()-t; if(t<best[k])best[k]=t; }
  double g0=n*(double)rep/best[0]*1e-9, g1=n*(double)rep/best[1]*1e-9;
  printf("old %.3f  new %.3f G values/s  new/old %.3f\n", g0, g1, g1/g0);
  return 0;
}
