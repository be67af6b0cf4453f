npx rollup -c
mkdir -p dist/embeddings-and-position/web
cp -r node_modules/embeddings-and-position/web/dist node_modules/embeddings-and-position/web/widgets dist/embeddings-and-position/web/
cp -r node_modules/embeddings-and-position/model dist/embeddings-and-position/
