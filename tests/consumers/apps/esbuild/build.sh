npx esbuild src/main.js --bundle --format=esm --outdir=dist
mkdir -p dist/embeddings-and-position/web
cp -r node_modules/embeddings-and-position/web/dist node_modules/embeddings-and-position/web/widgets dist/embeddings-and-position/web/
cp -r node_modules/embeddings-and-position/model dist/embeddings-and-position/
